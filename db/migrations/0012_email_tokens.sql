CREATE TABLE "artist_email_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_email_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "artist_email_tokens" ADD CONSTRAINT "artist_email_tokens_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_email_tokens" ADD CONSTRAINT "user_email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "artist_email_tokens_token_hash_idx" ON "artist_email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "artist_email_tokens_artist_id_idx" ON "artist_email_tokens" USING btree ("artist_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_email_tokens_token_hash_idx" ON "user_email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "user_email_tokens_user_id_idx" ON "user_email_tokens" USING btree ("user_id");