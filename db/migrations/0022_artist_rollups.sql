CREATE TABLE "play_artist_countries_daily" (
	"artist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"country" text NOT NULL,
	"plays" integer NOT NULL,
	CONSTRAINT "play_artist_countries_daily_artist_id_day_country_pk" PRIMARY KEY("artist_id","day","country")
);
--> statement-breakpoint
ALTER TABLE "play_artist_daily" ADD COLUMN "plays" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_artist_countries_daily" ADD CONSTRAINT "play_artist_countries_daily_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Plays counted before this migration: the artist's days and countries from the tracks' own.
UPDATE "play_artist_daily" a SET "plays" = s.plays
FROM (SELECT t.artist_id, p.day, sum(p.plays)::int AS plays
      FROM "play_counts_daily" p JOIN "tracks" t ON t.id = p.track_id GROUP BY 1, 2) s
WHERE a.artist_id = s.artist_id AND a.day = s.day;--> statement-breakpoint
INSERT INTO "play_artist_countries_daily" ("artist_id", "day", "country", "plays")
SELECT t.artist_id, c.day, c.country, sum(c.plays)::int
FROM "play_countries_daily" c JOIN "tracks" t ON t.id = c.track_id GROUP BY 1, 2, 3;
