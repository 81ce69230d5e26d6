import { type HttpDatabase, rateLimits, userAppPasswords, users } from "@edge-music/db";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { RequestDeps } from "../../request-deps.ts";
import { ACCOUNT_KINDS, type PrincipalKind } from "../../security/account-kinds.ts";
import { appPasswordHashCandidates, openAppPassword } from "../../security/app-password-secret.ts";
import { timingSafeEqual } from "../../security/crypto.ts";
import { type Hit, hitLimits, signInLimits } from "../../security/rate-limit.ts";
import { CHECK_FAILED, check } from "./checks.ts";
import type { Claim } from "./claim.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { md5Hex, remember } from "./verified.ts";

/** The account behind a checked credential, and the app password that proved it. */
export interface Caller {
  kind: PrincipalKind;
  id: string;
  username: string;
  appPasswordId: string;
  /** When the app password was last written as used (see touchLater). */
  lastUsedAt: Date | null;
}

type Ctx = Pick<RequestDeps, "db" | "env" | "now" | "ip">;

/**
 * The failure counters of a claim, shaped like the sign-in limits (per account from everywhere,
 * per client network against it, per network against all), under keys of their own.
 */
function limitsOf(ctx: Ctx, claim: Claim, hashes: string[] | null) {
  const who =
    claim.form === "apiKey" ? `key:${hashes?.[0]?.slice(0, 16)}` : claim.username.toLowerCase();
  return signInLimits("subsonic", who, ctx.ip);
}

export interface CredentialCheck {
  /** Statements to send first in the request's one batch (nothing written). */
  statements: [ReturnType<typeof countersQuery>, ReturnType<typeof candidatesQuery>];
  /** Judges what they answered: the caller, or the protocol's error (failures counted). */
  judge(results: unknown[]): Promise<Caller>;
  /**
   * The listener the claim names, as SQL, for reads of a listener's own rows sent before the
   * verdict (by username, or by the apiKey's hash). Their result is the caller's only when the
   * verdict is a listener: use it only then.
   */
  claimedUserId: SQL;
}

/**
 * The credential check of a request, as statements that ride in its one batch (like the REST
 * session check, ADR 0010): the failure counters and the app passwords the claim may match are
 * read; the Worker then judges (token auth needs the secret opened: md5 is not ours to ask of
 * Postgres). Only a failure costs a second round trip, which counts it.
 */
export async function credentialCheck(ctx: Ctx, claim: Claim): Promise<CredentialCheck> {
  const secret =
    claim.form === "password" ? claim.password : claim.form === "apiKey" ? claim.apiKey : null;
  const hashes = secret === null ? null : await appPasswordHashCandidates(ctx.env, secret);
  const counters = limitsOf(ctx, claim, hashes);
  const username = claim.form === "apiKey" ? null : claim.username;
  const statements = [
    countersQuery(
      ctx.db,
      counters.limits.map((limit) => limit.key),
    ),
    candidatesQuery(ctx.db, username, hashes),
  ] as CredentialCheck["statements"];
  const claimedUserId =
    username === null
      ? sql`(select ${userAppPasswords.principalId} from ${userAppPasswords} where ${inArray(userAppPasswords.secretHash, hashes ?? [""])} limit 1)`
      : sql`(select ${users.id} from ${users} where lower(${users.username}) = lower(${username}))`;
  return {
    statements,
    claimedUserId,
    async judge(results) {
      const rows = results[0] as Array<{ key: string; hits: number; windowStartedAt: Date }>;
      const windowStart = (seconds: number) => ctx.now.getTime() - seconds * 1000;
      const hits = counters.limits.map((limit): Hit => {
        const row = rows.find((r) => r.key === limit.key);
        const live = row && row.windowStartedAt.getTime() > windowStart(limit.windowSeconds);
        // Judged as if this attempt were counted too (sign-in counts it first): the attempt
        // after the last one allowed is refused.
        return [
          live
            ? { hits: row.hits + 1, windowStartedAt: row.windowStartedAt }
            : { hits: 1, windowStartedAt: ctx.now },
        ];
      });
      try {
        counters.judge(hits, ctx.now);
      } catch {
        throw new SubsonicError(
          SUBSONIC_ERRORS.generic,
          "Too many failed sign-ins from this network; try again in a few minutes.",
        );
      }
      const candidates = (results[1] as { rows: CandidateRow[] }).rows;
      const matched = await match(ctx, claim, candidates);
      if (matched) {
        remember(claim, matched.caller, matched.secret, ctx.now);
        return matched.caller;
      }
      // A failure is counted (a second round trip; a success never writes a counter).
      await hitLimits(ctx.db, counters.limits, ctx.now).catch(() => undefined);
      throw claim.form === "apiKey"
        ? new SubsonicError(SUBSONIC_ERRORS.invalidApiKey, "Invalid API key.")
        : new SubsonicError(SUBSONIC_ERRORS.wrongCredentials, "Wrong username or password.");
    },
  };
}

function countersQuery(db: HttpDatabase, keys: string[]) {
  return db
    .select({
      key: rateLimits.key,
      hits: rateLimits.hits,
      windowStartedAt: rateLimits.windowStartedAt,
    })
    .from(rateLimits)
    .where(inArray(rateLimits.key, keys));
}

interface CandidateRow {
  kind: PrincipalKind;
  id: string;
  principal_id: string;
  username: string;
  sealed: string;
  last_used_at: string | null;
}

/**
 * The app passwords a claim may match, of both account kinds (a listener and an artist may share
 * a username: the secret tells them apart): by username (token auth tries each), by keyed hash
 * (the secret itself was sent), or by both.
 */
function candidatesQuery(db: HttpDatabase, username: string | null, hashes: string[] | null) {
  const parts = (["user", "artist"] as const).map((kind) => {
    const { principals, auth } = ACCOUNT_KINDS[kind];
    const { appPasswords } = auth;
    const conditions: SQL[] = [];
    if (username !== null) conditions.push(sql`lower(${principals.username}) = lower(${username})`);
    if (hashes !== null) conditions.push(inArray(appPasswords.secretHash, hashes));
    return sql`(select ${kind}::text as kind, ${appPasswords.id} as id, ${principals.id} as principal_id,
      ${principals.username} as username, ${appPasswords.secretCiphertext} as sealed,
      ${appPasswords.lastUsedAt} as last_used_at
      from ${appPasswords} join ${principals} on ${eq(principals.id, appPasswords.principalId)}
      where ${and(...conditions)} limit 50)`;
  });
  return db.execute(sql`${parts[0]} union all ${parts[1]}`);
}

/** How often `lastUsedAt` is written: an app calls many times a minute. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** The candidate the claim proves, with its secret (for the isolate to remember). */
async function match(
  ctx: Ctx,
  claim: Claim,
  rows: CandidateRow[],
): Promise<{ caller: Caller; secret: string } | null> {
  let found: { row: CandidateRow; secret: string } | undefined;
  if (claim.form === "token") {
    for (const row of rows) {
      const secret = await openAppPassword(ctx.env, row.kind, row.id, row.sealed).catch(() => null);
      if (secret !== null && timingSafeEqual(await md5Hex(secret + claim.salt), claim.token)) {
        found ??= { row, secret };
      }
    }
  } else {
    // The keyed hash matched in SQL: the row holds this secret.
    const [row] = rows;
    if (row) found = { row, secret: claim.form === "apiKey" ? claim.apiKey : claim.password };
  }
  if (!found) return null;
  const { row, secret } = found;
  return {
    secret,
    caller: {
      kind: row.kind,
      id: row.principal_id,
      username: row.username,
      appPasswordId: row.id,
      lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
    },
  };
}

/**
 * The statement that confirms, first in the call's one batch, a credential the isolate remembers
 * (verified.ts): its app password still exists, for this account, under the username the claim
 * gave. Otherwise it raises CHECK_FAILED.credential and nothing sent with it runs; the call is
 * then checked from the database again. The failure limits are not read: a remembered secret was
 * proved right, and a wrong one is never remembered (it goes the database's way, counted).
 */
export function heldCheck(db: HttpDatabase, claim: Claim, caller: Caller) {
  const { principals, auth } = ACCOUNT_KINDS[caller.kind];
  const { appPasswords } = auth;
  const sameName =
    claim.form === "apiKey"
      ? sql`true`
      : sql`lower(${principals.username}) = lower(${claim.username})`;
  return check(
    db,
    sql`exists (select from ${appPasswords} join ${principals} on ${eq(principals.id, appPasswords.principalId)}
      where ${appPasswords.id} = ${caller.appPasswordId} and ${principals.id} = ${caller.id} and ${sameName})`,
    CHECK_FAILED.credential,
    "The app password no longer holds.",
  );
}

/**
 * The row's `lastUsedAt`, written after the answer when older than TOUCH_EVERY_MS. The caller
 * (which the isolate may remember, verified.ts) then holds the new time, so the next calls do not
 * write it again.
 */
export function touchLater(
  ctx: Pick<RequestDeps, "db" | "now" | "waitUntil" | "log">,
  caller: Caller,
) {
  const { lastUsedAt } = caller;
  if (lastUsedAt && ctx.now.getTime() - lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  caller.lastUsedAt = ctx.now;
  const { appPasswords } = ACCOUNT_KINDS[caller.kind].auth;
  ctx.waitUntil(
    ctx.db
      .update(appPasswords)
      .set({ lastUsedAt: ctx.now })
      .where(eq(appPasswords.id, caller.appPasswordId))
      .then(() => undefined)
      .catch((error: unknown) => ctx.log.warn("app password lastUsedAt not written", { error })),
  );
}
