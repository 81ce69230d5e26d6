-- Custom SQL migration file, put your code below! --
-- Using up something single-use (a TOTP step, a recovery code) in the same round trip as what it
-- unlocks: the Worker sends
--   WITH claimed AS (UPDATE … WHERE <still unused> RETURNING 1) SELECT assert_claimed(count(*)) FROM claimed
-- first in a batch. When another request used it first, nothing was claimed: SQLSTATE ESUSE
-- aborts the whole batch (the session it would have opened, the change it would have made), and
-- the Worker answers as for a wrong code.
CREATE FUNCTION assert_claimed(claimed bigint)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF claimed IS NULL OR claimed < 1 THEN
    RAISE EXCEPTION 'already used' USING ERRCODE = 'ESUSE';
  END IF;
  RETURN true;
END;
$$;
