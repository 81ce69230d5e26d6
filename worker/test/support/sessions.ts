import { eq, sql } from "drizzle-orm";
import { ACCOUNT_KINDS, type PrincipalKind } from "../../src/security/account-kinds.ts";
import { withDb } from "./factories.ts";

/** Moves the last token rotation of the account's sessions `seconds` into the past. */
export async function ageRotation(kind: PrincipalKind, principalId: string, seconds: number) {
  const { sessions } = ACCOUNT_KINDS[kind].auth;
  await withDb((db) =>
    db
      .update(sessions)
      .set({ refreshedAt: sql`now() - make_interval(secs => ${seconds})` })
      .where(eq(sessions.principalId, principalId)),
  );
}
