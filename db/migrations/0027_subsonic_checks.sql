-- Custom SQL migration file, put your code below! --
-- Checks that travel inside a Subsonic call's one round trip (ADR 0029), as the session check
-- does for the REST API (migration 0009): a statement of the batch asserts a condition and, when
-- it does not hold, raises the SQLSTATE given, which aborts the whole batch (nothing is written).
-- `state` is one of the codes the Worker maps to a protocol error: ES040 (the credential no
-- longer holds), ES050 (not the caller's), ES070 (not found), ES000 (a rule refused the call);
-- `detail` is the sentence the answer gives. VOLATILE: evaluated where it stands in the batch.
CREATE FUNCTION assert_that(ok boolean, state text, detail text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    IF state NOT IN ('ES000', 'ES040', 'ES050', 'ES070') THEN
      RAISE EXCEPTION 'assert_that: unknown state %', state;
    END IF;
    RAISE EXCEPTION 'check failed' USING ERRCODE = state, DETAIL = detail;
  END IF;
  RETURN true;
END;
$$;
