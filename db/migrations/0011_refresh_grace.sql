ALTER TABLE "artist_sessions" ADD COLUMN "previous_refresh_token_id" uuid;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD COLUMN "previous_refresh_token_id" uuid;