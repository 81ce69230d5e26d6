-- Custom SQL migration file, put your code below! ---- A rate limit counted in the same round trip as what it guards, after the request already knows
-- the attempt deserves a verdict (a second-factor code whose password was right): the Worker sends
--   WITH hit AS (INSERT … ON CONFLICT … RETURNING hits, window_started_at)
--   SELECT assert_within_limit(hits, max, <seconds until the window ends>) FROM hit
-- first in the batch that the attempt unlocks. Past the limit, SQLSTATE ES429 aborts the whole
-- batch (nothing it would have done is written, the count included) and its DETAIL carries the
-- seconds to wait, which the Worker answers as 429 with Retry-After.
CREATE FUNCTION assert_within_limit(hits integer, max_hits integer, retry_after_seconds integer)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF hits > max_hits THEN
    RAISE EXCEPTION 'rate limited' USING ERRCODE = 'ES429', DETAIL = greatest(retry_after_seconds, 1)::text;
  END IF;
  RETURN true;
END;
$$;
