CREATE TABLE "play_queues" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"track_ids" uuid[] NOT NULL,
	"current_track_id" uuid,
	"position" double precision DEFAULT 0 NOT NULL,
	"changed_by" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_likes" (
	"user_id" uuid NOT NULL,
	"track_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "track_likes_user_id_track_id_pk" PRIMARY KEY("user_id","track_id")
);
--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "album_position" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "play_queues" ADD CONSTRAINT "play_queues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_likes" ADD CONSTRAINT "track_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_likes" ADD CONSTRAINT "track_likes_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "track_likes_track_id_idx" ON "track_likes" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "track_likes_user_newest_idx" ON "track_likes" USING btree ("user_id","created_at" DESC,"track_id" DESC);--> statement-breakpoint
-- A track's place in its album: the existing albums keep the order they were shown in (oldest
-- upload first), then a trigger places each track that joins an album after its last one, in
-- the statement that moves it (no extra round trip for the Worker), and a single has none. Two
-- tracks joining the same album at once may share a place; the album lists ties oldest first.
UPDATE "tracks" AS t SET "album_position" = ordered.position
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "album_id" ORDER BY "created_at", "id") AS position
  FROM "tracks" WHERE "album_id" IS NOT NULL
) AS ordered
WHERE t."id" = ordered."id";
--> statement-breakpoint
CREATE FUNCTION public.tracks_place_in_album() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.album_id IS NULL THEN
    NEW.album_position := NULL;
  ELSIF TG_OP = 'INSERT' OR OLD.album_id IS DISTINCT FROM NEW.album_id THEN
    SELECT coalesce(max(album_position), 0) + 1 INTO NEW.album_position
    FROM public.tracks WHERE album_id = NEW.album_id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_place_in_album BEFORE INSERT OR UPDATE OF album_id ON tracks
  FOR EACH ROW EXECUTE FUNCTION public.tracks_place_in_album();
