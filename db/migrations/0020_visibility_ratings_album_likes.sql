-- Issue 31's visibility (ADR 0025): a volatile default gives every existing row its own share key.
CREATE TYPE "public"."visibility" AS ENUM('public', 'unlisted', 'private');--> statement-breakpoint
CREATE TABLE "album_likes" (
	"user_id" uuid NOT NULL,
	"album_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "album_likes_user_id_album_id_pk" PRIMARY KEY("user_id","album_id")
);
--> statement-breakpoint
CREATE TABLE "track_ratings" (
	"user_id" uuid NOT NULL,
	"track_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "track_ratings_user_id_track_id_pk" PRIMARY KEY("user_id","track_id"),
	CONSTRAINT "track_ratings_rating_check" CHECK ("track_ratings"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "visibility" "visibility" DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "share_key" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "visibility" "visibility" DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "share_key" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "visibility" "visibility" DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "share_key" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "album_likes" ADD CONSTRAINT "album_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_likes" ADD CONSTRAINT "album_likes_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_ratings" ADD CONSTRAINT "track_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_ratings" ADD CONSTRAINT "track_ratings_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "album_likes_album_id_idx" ON "album_likes" USING btree ("album_id");--> statement-breakpoint
CREATE INDEX "album_likes_user_newest_idx" ON "album_likes" USING btree ("user_id","created_at" DESC,"album_id" DESC);--> statement-breakpoint
-- Playlists that are public today stay so; the rest stay private (ADR 0025).
UPDATE "playlists" SET "visibility" = 'public' WHERE "is_public";--> statement-breakpoint
ALTER TABLE "playlists" ADD CONSTRAINT "playlists_visibility_check" CHECK ("playlists"."is_public" = ("playlists"."visibility" = 'public'));