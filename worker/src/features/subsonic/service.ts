import { FOREIGN_KEY_VIOLATION, pgErrorCode } from "@edge-music/db";
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  AppError,
  ForbiddenError,
  NotFoundError,
  RangeNotSatisfiableError,
} from "../../errors/app-error.ts";
import { PROBLEM_TYPES } from "../../errors/problem.ts";
import { albumListMethods } from "./album-lists.ts";
import { annotationMethods } from "./annotation.ts";
import { browsingMethods } from "./browsing.ts";
import { CHECK_FAILED, checkAnswer } from "./checks.ts";
import { type Claim, readClaim } from "./claim.ts";
import { credentialCheck, heldCheck, touchLater } from "./credentials.ts";
import { directoryMethods } from "./directory.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { folderMethods } from "./folder-variants.ts";
import { infoMethods } from "./info.ts";
import { emptyMethods, listMethods } from "./lists.ts";
import { mediaMethods } from "./media.ts";
import type { Answering, AnyMethod, CallInput, SubsonicDeps } from "./method.ts";
import { playQueueMethods } from "./play-queue.ts";
import { playlistEditMethods } from "./playlist-edits.ts";
import { playlistMethods } from "./playlists.ts";
import { envelope, errorEnvelope, type Format, readFormat } from "./respond.ts";
import { searchMethods } from "./search.ts";
import { similarMethods } from "./similar.ts";
import { openMethods, systemMethods } from "./system.ts";
import { forget, recall } from "./verified.ts";

/** Every method this door answers with credentials, by name. */
export const METHODS: Record<string, AnyMethod> = {
  ...systemMethods,
  ...browsingMethods,
  ...directoryMethods,
  ...infoMethods,
  ...listMethods,
  ...albumListMethods,
  ...folderMethods,
  ...emptyMethods,
  ...similarMethods,
  ...searchMethods,
  ...mediaMethods,
  ...playlistMethods,
  ...playlistEditMethods,
  ...playQueueMethods,
  ...annotationMethods,
};

/** The names apps may call, for the documents and tests. */
export const METHOD_NAMES = [...Object.keys(openMethods), ...Object.keys(METHODS)].sort();

/**
 * One Subsonic call. The protocol's errors are answers (HTTP 200, `status="failed"`), never
 * problem documents. In order, without the database: the format, the credential's form (10, 42,
 * 43), the method's arguments (10); then ONE round trip (ADR 0024, ADR 0029):
 * - a credential this isolate proved before (verified.ts): the statement that confirms it still
 *   holds, the method's reads and its writes, in one batch;
 * - otherwise the credential check (the failure counters and the app passwords the claim may
 *   match) with the method's reads; the Worker judges (40, 44) before anything read is used, and
 *   a write goes in a second round trip after the verdict.
 */
export async function answerCall(
  deps: SubsonicDeps,
  name: string,
  call: CallInput & { otherCredential: boolean },
): Promise<Response> {
  const { format, error } = readFormat(call.params);
  if (error) return errorEnvelope(format, error);
  try {
    const open = openMethods[name];
    if (open) return envelope(format, open.answer());
    const method = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
    const claim = readClaim(call.params, call.otherCredential);
    if (!method) {
      throw new SubsonicError(SUBSONIC_ERRORS.notFound, `${name} is not served by this server.`);
    }
    const args = method.args(call.params);
    const answering =
      (await rememberedCall(deps, claim, method, args)) ??
      (await checkedCall(deps, claim, method, args));
    touchLater(deps, answering.caller);
    const answer = await method.answer({ deps, args, call, ...answering });
    return answer instanceof Response ? answer : envelope(format, answer);
  } catch (thrown) {
    return failure(deps, format, thrown);
  }
}

type Answered = Pick<Answering<unknown>, "caller" | "results" | "written">;

const batch = async (deps: SubsonicDeps, items: BatchItem<"pg">[]) =>
  items.length === 0
    ? []
    : ((await deps.db.batch(
        items as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]],
      )) as unknown[]);

/**
 * A call whose credential the isolate remembers: one batch, the statement that confirms it
 * first. Null when it is not remembered, when the method refuses this caller before anything is
 * sent, or when the confirmation failed (then forgotten): the database decides then.
 */
async function rememberedCall(
  deps: SubsonicDeps,
  claim: Claim,
  method: AnyMethod,
  args: unknown,
): Promise<Answered | null> {
  const caller = await recall(claim, deps.now);
  if (!caller) return null;
  let writes: BatchItem<"pg">[];
  try {
    writes = method.writes?.(deps, args, caller) ?? [];
  } catch {
    return null;
  }
  const reads = method.reads?.(deps, args, sql`${caller.id}::uuid`) ?? [];
  try {
    const [, ...results] = await batch(deps, [
      heldCheck(deps.db, claim, caller),
      ...reads,
      ...writes,
    ]);
    return {
      caller,
      results: results.slice(0, reads.length),
      written: results.slice(reads.length),
    };
  } catch (thrown) {
    if (pgErrorCode(thrown) !== CHECK_FAILED.credential) throw thrown;
    forget(caller.appPasswordId);
    return null;
  }
}

/** A call checked from the database: the check with the reads, then any writes. */
async function checkedCall(
  deps: SubsonicDeps,
  claim: Claim,
  method: AnyMethod,
  args: unknown,
): Promise<Answered> {
  const check = await credentialCheck(deps, claim);
  const reads = method.reads?.(deps, args, check.claimedUserId) ?? [];
  const results = await batch(deps, [...check.statements, ...reads]);
  const caller = await check.judge(results.slice(0, check.statements.length));
  const written = await batch(deps, method.writes?.(deps, args, caller) ?? []);
  return { caller, results: results.slice(check.statements.length), written };
}

/** A thrown error as the protocol answers it; only a refused byte range stays an HTTP 416. */
function failure(deps: SubsonicDeps, format: Format, thrown: unknown): Response {
  if (thrown instanceof SubsonicError) return errorEnvelope(format, thrown);
  const checked = checkAnswer(thrown);
  if (checked) return errorEnvelope(format, checked);
  // A row named went away while the call was written (a song deleted just then).
  if (pgErrorCode(thrown) === FOREIGN_KEY_VIOLATION) {
    return errorEnvelope(format, new SubsonicError(SUBSONIC_ERRORS.notFound, "Not found."));
  }
  if (thrown instanceof RangeNotSatisfiableError) {
    return new Response(null, { status: 416, headers: thrown.headers });
  }
  if (thrown instanceof ForbiddenError) {
    return errorEnvelope(format, new SubsonicError(SUBSONIC_ERRORS.notAuthorized, thrown.message));
  }
  if (thrown instanceof NotFoundError) {
    return errorEnvelope(format, new SubsonicError(SUBSONIC_ERRORS.notFound, thrown.message));
  }
  if (thrown instanceof AppError && PROBLEM_TYPES[thrown.code].status < 500) {
    return errorEnvelope(format, new SubsonicError(SUBSONIC_ERRORS.generic, thrown.message));
  }
  deps.log.error("subsonic call failed", { error: thrown });
  return errorEnvelope(
    format,
    new SubsonicError(SUBSONIC_ERRORS.generic, "The server could not answer; try again."),
  );
}
