CREATE TABLE "play_artist_daily" (
	"artist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"listeners" integer NOT NULL,
	CONSTRAINT "play_artist_daily_artist_id_day_pk" PRIMARY KEY("artist_id","day")
);
--> statement-breakpoint
CREATE TABLE "play_artist_listeners_daily" (
	"artist_id" uuid NOT NULL,
	"day" date NOT NULL,
	"listener_key" text NOT NULL,
	CONSTRAINT "play_artist_listeners_daily_artist_id_day_listener_key_pk" PRIMARY KEY("artist_id","day","listener_key")
);
--> statement-breakpoint
CREATE TABLE "play_counts_daily" (
	"track_id" uuid NOT NULL,
	"day" date NOT NULL,
	"plays" integer NOT NULL,
	"listeners" integer NOT NULL,
	CONSTRAINT "play_counts_daily_track_id_day_pk" PRIMARY KEY("track_id","day")
);
--> statement-breakpoint
CREATE TABLE "play_counts_hourly" (
	"track_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"plays" integer NOT NULL,
	CONSTRAINT "play_counts_hourly_track_id_hour_pk" PRIMARY KEY("track_id","hour")
);
--> statement-breakpoint
CREATE TABLE "play_countries_daily" (
	"track_id" uuid NOT NULL,
	"day" date NOT NULL,
	"country" text NOT NULL,
	"plays" integer NOT NULL,
	CONSTRAINT "play_countries_daily_track_id_day_country_pk" PRIMARY KEY("track_id","day","country")
);
--> statement-breakpoint
CREATE TABLE "play_inbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "play_inbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"play" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "play_listeners_daily" (
	"track_id" uuid NOT NULL,
	"day" date NOT NULL,
	"listener_key" text NOT NULL,
	CONSTRAINT "play_listeners_daily_track_id_day_listener_key_pk" PRIMARY KEY("track_id","day","listener_key")
);
--> statement-breakpoint
CREATE TABLE "play_recent" (
	"listener_key" text NOT NULL,
	"track_id" uuid NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "play_recent_listener_key_track_id_pk" PRIMARY KEY("listener_key","track_id")
);
--> statement-breakpoint
CREATE TABLE "trending_tracks" (
	"window" text NOT NULL,
	"rank" integer NOT NULL,
	"track_id" uuid NOT NULL,
	"score" double precision NOT NULL,
	"listeners" integer NOT NULL,
	"likes" integer NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trending_tracks_window_rank_pk" PRIMARY KEY("window","rank")
);
--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "plays" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "play_artist_daily" ADD CONSTRAINT "play_artist_daily_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_artist_listeners_daily" ADD CONSTRAINT "play_artist_listeners_daily_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_counts_daily" ADD CONSTRAINT "play_counts_daily_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_counts_hourly" ADD CONSTRAINT "play_counts_hourly_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_countries_daily" ADD CONSTRAINT "play_countries_daily_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_listeners_daily" ADD CONSTRAINT "play_listeners_daily_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "play_recent" ADD CONSTRAINT "play_recent_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trending_tracks" ADD CONSTRAINT "trending_tracks_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "play_artist_listeners_daily_day_idx" ON "play_artist_listeners_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "play_counts_daily_day_idx" ON "play_counts_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "play_counts_hourly_hour_idx" ON "play_counts_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "play_listeners_daily_day_idx" ON "play_listeners_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "play_recent_counted_at_idx" ON "play_recent" USING btree ("counted_at");--> statement-breakpoint
CREATE INDEX "trending_tracks_track_id_idx" ON "trending_tracks" USING btree ("track_id");