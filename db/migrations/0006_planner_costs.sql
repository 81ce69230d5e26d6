-- Custom SQL migration file, put your code below! --
-- The planner's default random_page_cost (4) prices a random page read at four sequential ones:
-- a cold cache on spinning disks. Neon serves pages from memory and local SSD, as does any
-- database of this size (Postgres' own documentation suggests 1.1 for SSDs). At 4, whether a
-- 500-track playlist was joined by 500 primary-key lookups (≈ 2.5 ms) or by reading all 100k
-- tracks (≈ 20 ms) depended on the sample ANALYZE happened to take (see ADR 0006).
-- Set on the database, so every new session of every role gets it. A role that does not own the
-- database cannot: then a warning, not a failed deploy (only plans get slower).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'random_page_cost stays at its default: %', SQLERRM;
END
$$;
