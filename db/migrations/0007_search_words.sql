CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"query" "tsquery" GENERATED ALWAYS AS (plainto_tsquery('simple', (tsvector_to_array(to_tsvector('english', "word")))[1])) STORED
);
--> statement-breakpoint
CREATE INDEX "search_words_word_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of a search_text: split on spaces and punctuation (any other character, in any
-- script, stays in its word), 3 to 64 characters, each once. The search splits a query the same
-- way.
CREATE FUNCTION public.search_words_of(search_text text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(search_text, '[[:space:][:punct:]]+') AS w
  WHERE char_length(w) BETWEEN 3 AND 64
$$;
--> statement-breakpoint
-- Collects the words of a statement's new rows. In word order: two transactions adding the same
-- new words wait for each other in one order, never in a cycle (no deadlock).
CREATE FUNCTION public.search_words_collect() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.search_words (word)
  SELECT DISTINCT w FROM new_rows, public.search_words_of(new_rows.search_text) AS w
  ORDER BY w
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tracks_search_words_insert AFTER INSERT ON tracks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER tracks_search_words_update AFTER UPDATE ON tracks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER artists_search_words_insert AFTER INSERT ON artists
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER artists_search_words_update AFTER UPDATE ON artists
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER albums_search_words_insert AFTER INSERT ON albums
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER albums_search_words_update AFTER UPDATE ON albums
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER playlists_search_words_insert AFTER INSERT ON playlists
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
CREATE TRIGGER playlists_search_words_update AFTER UPDATE ON playlists
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.search_words_collect();
--> statement-breakpoint
INSERT INTO public.search_words (word)
SELECT DISTINCT w FROM (
  SELECT search_text FROM tracks UNION ALL SELECT search_text FROM artists
  UNION ALL SELECT search_text FROM albums UNION ALL SELECT search_text FROM playlists
) AS titles, public.search_words_of(titles.search_text) AS w
ORDER BY w
ON CONFLICT (word) DO NOTHING;
--> statement-breakpoint
-- `a | b | …` and `a & b & …` of a column of tsqueries (the operators || and && as aggregates):
-- a search builds one full-text query from the near words of each word it was given.
CREATE AGGREGATE public.tsquery_or_agg(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);
--> statement-breakpoint
CREATE AGGREGATE public.tsquery_and_agg(tsquery) (SFUNC = tsquery_and, STYPE = tsquery);
