ALTER TABLE "artist_email_tokens" ADD COLUMN "purpose" text DEFAULT 'verify' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_email_tokens" ADD COLUMN "purpose" text DEFAULT 'verify' NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_email_tokens" ADD CONSTRAINT "artist_email_tokens_purpose_check" CHECK ("artist_email_tokens"."purpose" in ('verify', 'change'));--> statement-breakpoint
ALTER TABLE "user_email_tokens" ADD CONSTRAINT "user_email_tokens_purpose_check" CHECK ("user_email_tokens"."purpose" in ('verify', 'change'));