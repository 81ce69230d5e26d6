-- Custom SQL migration file, put your code below! --
-- The session check that travels with a signed-in request's first round trip: the Worker puts
-- `SELECT assert_live_session(kind, session, principal, at)` first in that round trip's batch, so
-- the request's reads and writes commit only if the session is live at that moment. A dead
-- session raises SQLSTATE ES401, which aborts the whole batch (nothing is written) and which the
-- Worker answers as 401. STABLE: it reads only; it is not cached across statements.
CREATE FUNCTION assert_live_session(kind text, session_id uuid, principal_id uuid, at timestamptz)
RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF kind = 'user' THEN
    PERFORM 1 FROM user_sessions
      WHERE id = session_id AND user_id = principal_id AND expires_at > at;
  ELSIF kind = 'artist' THEN
    PERFORM 1 FROM artist_sessions
      WHERE id = session_id AND artist_id = principal_id AND expires_at > at;
  END IF;
  IF NOT FOUND OR kind NOT IN ('user', 'artist') THEN
    RAISE EXCEPTION 'the session has ended' USING ERRCODE = 'ES401';
  END IF;
  RETURN true;
END;
$$;
