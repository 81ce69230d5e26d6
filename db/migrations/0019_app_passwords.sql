CREATE TABLE "artist_app_passwords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_app_passwords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "artist_app_passwords" ADD CONSTRAINT "artist_app_passwords_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_app_passwords" ADD CONSTRAINT "user_app_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "artist_app_passwords_secret_hash_idx" ON "artist_app_passwords" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "artist_app_passwords_artist_id_idx" ON "artist_app_passwords" USING btree ("artist_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_app_passwords_secret_hash_idx" ON "user_app_passwords" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "user_app_passwords_user_id_idx" ON "user_app_passwords" USING btree ("user_id");