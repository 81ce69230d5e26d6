CREATE TABLE "artist_follows_daily" (
	"artist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"follows" integer NOT NULL,
	CONSTRAINT "artist_follows_daily_artist_id_day_pk" PRIMARY KEY("artist_id","day")
);
--> statement-breakpoint
CREATE TABLE "artist_likes_daily" (
	"artist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"likes" integer NOT NULL,
	CONSTRAINT "artist_likes_daily_artist_id_day_pk" PRIMARY KEY("artist_id","day")
);
--> statement-breakpoint
ALTER TABLE "artist_follows_daily" ADD CONSTRAINT "artist_follows_daily_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_likes_daily" ADD CONSTRAINT "artist_likes_daily_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The day roll-ups are kept by statement triggers: one upsert per artist and day a statement
-- touches, in key order (two statements meeting on a row lock it in one order). Days are UTC.
CREATE FUNCTION artist_likes_daily_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO artist_likes_daily AS a (artist_id, day, likes)
    SELECT t.artist_id, (n.created_at AT TIME ZONE 'UTC')::date, count(*)::int
    FROM new_rows n JOIN tracks t ON t.id = n.track_id
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (artist_id, day) DO UPDATE SET likes = a.likes + excluded.likes;
  ELSE
    -- A track deleted with its likes is gone from `tracks` already: its likes stay on their days.
    UPDATE artist_likes_daily AS a SET likes = a.likes - o.likes
    FROM (
      SELECT t.artist_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS likes
      FROM old_rows o JOIN tracks t ON t.id = o.track_id
      GROUP BY 1, 2 ORDER BY 1, 2
    ) o
    WHERE a.artist_id = o.artist_id AND a.day = o.day;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER track_likes_days_insert AFTER INSERT ON track_likes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION artist_likes_daily_keep();
--> statement-breakpoint
CREATE TRIGGER track_likes_days_delete AFTER DELETE ON track_likes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION artist_likes_daily_keep();
--> statement-breakpoint
CREATE FUNCTION artist_follows_daily_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO artist_follows_daily AS a (artist_id, day, follows)
    SELECT n.artist_id, (n.created_at AT TIME ZONE 'UTC')::date, count(*)::int
    FROM new_rows n
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (artist_id, day) DO UPDATE SET follows = a.follows + excluded.follows;
  ELSE
    UPDATE artist_follows_daily AS a SET follows = a.follows - o.follows
    FROM (
      SELECT o.artist_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS follows
      FROM old_rows o
      GROUP BY 1, 2 ORDER BY 1, 2
    ) o
    WHERE a.artist_id = o.artist_id AND a.day = o.day;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER follows_days_insert AFTER INSERT ON follows
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION artist_follows_daily_keep();
--> statement-breakpoint
CREATE TRIGGER follows_days_delete AFTER DELETE ON follows
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION artist_follows_daily_keep();
--> statement-breakpoint
-- What there is already.
INSERT INTO artist_likes_daily (artist_id, day, likes)
SELECT t.artist_id, (l.created_at AT TIME ZONE 'UTC')::date, count(*)::int
FROM track_likes l JOIN tracks t ON t.id = l.track_id GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO artist_follows_daily (artist_id, day, follows)
SELECT artist_id, (created_at AT TIME ZONE 'UTC')::date, count(*)::int FROM follows GROUP BY 1, 2;
