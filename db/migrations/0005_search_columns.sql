DROP INDEX "albums_title_fts_idx";--> statement-breakpoint
DROP INDEX "albums_title_trgm_idx";--> statement-breakpoint
DROP INDEX "artists_username_fts_idx";--> statement-breakpoint
DROP INDEX "artists_username_trgm_idx";--> statement-breakpoint
DROP INDEX "playlists_title_fts_idx";--> statement-breakpoint
DROP INDEX "playlists_title_trgm_idx";--> statement-breakpoint
DROP INDEX "tracks_title_fts_idx";--> statement-breakpoint
DROP INDEX "tracks_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(public.immutable_unaccent("username"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', public.immutable_unaccent("username"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "playlists" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', public.immutable_unaccent("title"))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "albums_search_vector_idx" ON "albums" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "albums_search_text_trgm_idx" ON "albums" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "albums_search_text_prefix_idx" ON "albums" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "artists_search_vector_idx" ON "artists" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "artists_search_text_trgm_idx" ON "artists" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artists_search_text_prefix_idx" ON "artists" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "playlists_search_vector_idx" ON "playlists" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "playlists_search_text_trgm_idx" ON "playlists" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "playlists_search_text_prefix_idx" ON "playlists" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "tracks_search_vector_idx" ON "tracks" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tracks_search_text_trgm_idx" ON "tracks" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tracks_search_text_prefix_idx" ON "tracks" USING btree ("search_text" text_pattern_ops);