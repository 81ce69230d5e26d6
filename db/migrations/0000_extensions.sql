-- Custom SQL migration file, put your code below! --
-- Runs before every table migration: the search indexes in 0001 need all three objects.
-- Both extensions go to `public` explicitly, because immutable_unaccent and the trigram
-- indexes name them there.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so Postgres refuses it in an index
-- expression. This wrapper pins the dictionary and promises immutability; every name in the body
-- is schema-qualified so it behaves the same under any search_path (Postgres 17 runs index
-- maintenance with a restricted one).
CREATE OR REPLACE FUNCTION public.immutable_unaccent(text)
  RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
