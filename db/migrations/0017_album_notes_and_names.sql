-- Artists are searched by their display name and their username (ADR 0022): the generated search
-- columns are made anew from both (a generated column's expression cannot be altered), with the
-- indexes that went with them.
ALTER TABLE "artists" drop column "search_text";--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(public.immutable_unaccent(coalesce("display_name" || ' ', '') || "username"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "artists" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', public.immutable_unaccent(coalesce("display_name" || ' ', '') || "username"))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "artists_search_vector_idx" ON "artists" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "artists_search_text_trgm_idx" ON "artists" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artists_search_text_prefix_idx" ON "artists" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "albums" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_handle" text GENERATED ALWAYS AS (regexp_replace(lower(public.immutable_unaccent(coalesce("username", ''))), '[[:space:][:punct:]]+', '', 'g')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "artists" ADD COLUMN "search_display" text GENERATED ALWAYS AS (regexp_replace(lower(public.immutable_unaccent(coalesce("display_name", ''))), '[[:space:][:punct:]]+', '', 'g')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "artists_username_search_prefix_idx" ON "artists" USING btree (lower(public.immutable_unaccent("username")) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "artists_search_handle_trgm_idx" ON "artists" USING gin ("search_handle" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artists_search_display_trgm_idx" ON "artists" USING gin ("search_display" gin_trgm_ops);--> statement-breakpoint
-- The fewest edits (fuzzystrmatch's levenshtein, at most `allowed`; more: allowed + 1) between
-- `query` and a prefix of `name` of about its length: "lunharbor" is one edit from the start of
-- "lunaharbor911". Only a row the trigram index already found is measured.
CREATE FUNCTION public.prefix_edits(query text, name text, allowed integer) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(min(public.levenshtein_less_equal(query, left(name, l), allowed)), allowed + 1)
  FROM generate_series(greatest(char_length(query) - allowed, 1), char_length(query) + allowed) AS l
  WHERE l <= char_length(name)
$$;
--> statement-breakpoint
-- The words of the display names already set (none yet; kept for a database restored from elsewhere).
INSERT INTO public.search_words (word)
SELECT DISTINCT w FROM artists, public.search_words_of(artists.search_text) AS w
ORDER BY w
ON CONFLICT (word) DO NOTHING;
