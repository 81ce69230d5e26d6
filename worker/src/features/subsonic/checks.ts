import { type HttpDatabase, pgErrorCode, pgErrorDetail } from "@edge-music/db";
import { type SQL, sql } from "drizzle-orm";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";

/**
 * The SQLSTATEs `assert_that` (migration 0027) raises inside a call's batch, by what they mean.
 * A failed check aborts the whole batch: nothing sent with it is written (ADR 0029).
 */
export const CHECK_FAILED = {
  /** The credential the isolate remembered no longer holds (see verified.ts). */
  credential: "ES040",
  notAuthorized: "ES050",
  notFound: "ES070",
  refused: "ES000",
} as const;

type CheckState = (typeof CHECK_FAILED)[keyof typeof CHECK_FAILED];

/** A statement of the batch that raises `state` with `detail` unless `ok` holds where it stands. */
export const check = (db: HttpDatabase, ok: SQL, state: CheckState, detail: string) =>
  db.execute(sql`select assert_that(${ok}, ${state}, ${detail})`);

const ANSWERS: Record<string, number> = {
  [CHECK_FAILED.notAuthorized]: SUBSONIC_ERRORS.notAuthorized,
  [CHECK_FAILED.notFound]: SUBSONIC_ERRORS.notFound,
  [CHECK_FAILED.refused]: SUBSONIC_ERRORS.generic,
};

/** A failed check as the protocol answers it, or null for anything else. */
export function checkAnswer(thrown: unknown): SubsonicError | null {
  const code = ANSWERS[pgErrorCode(thrown) ?? ""];
  if (code === undefined) return null;
  const detail = pgErrorDetail(thrown) ?? "The call was refused.";
  return new SubsonicError(code as SubsonicError["code"], detail);
}
