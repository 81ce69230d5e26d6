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
import { readClaim } from "./claim.ts";
import { credentialCheck, touchLater } from "./credentials.ts";
import { directoryMethods } from "./directory.ts";
import { SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { infoMethods } from "./info.ts";
import { emptyMethods, listMethods } from "./lists.ts";
import { mediaMethods } from "./media.ts";
import type { AnyMethod, CallInput, SubsonicDeps } from "./method.ts";
import { playQueueMethods } from "./play-queue.ts";
import { playlistEditMethods } from "./playlist-edits.ts";
import { playlistMethods } from "./playlists.ts";
import { envelope, errorEnvelope, type Format, readFormat } from "./respond.ts";
import { searchMethods } from "./search.ts";
import { similarMethods } from "./similar.ts";
import { openMethods, systemMethods } from "./system.ts";

/** Every method this door answers with credentials, by name. */
export const METHODS: Record<string, AnyMethod> = {
  ...systemMethods,
  ...browsingMethods,
  ...directoryMethods,
  ...infoMethods,
  ...listMethods,
  ...albumListMethods,
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
 * 43), the method's arguments (10); then ONE round trip: the credential check (the failure
 * counters and the app passwords the claim may match) and the method's reads in one batch; the
 * Worker judges the credential (40, 44) before anything read is used, then answers.
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
    const check = await credentialCheck(deps, claim);
    const reads = method.reads?.(deps, args, check.claimedUserId) ?? [];
    const results = (await deps.db.batch([...check.statements, ...reads] as unknown as [
      BatchItem<"pg">,
      ...BatchItem<"pg">[],
    ])) as unknown[];
    const caller = await check.judge(results.slice(0, check.statements.length));
    touchLater(deps, caller);
    const answer = await method.answer({
      deps,
      args,
      caller,
      results: results.slice(check.statements.length),
      call,
    });
    return answer instanceof Response ? answer : envelope(format, answer);
  } catch (thrown) {
    return failure(deps, format, thrown);
  }
}

/** A thrown error as the protocol answers it; only a refused byte range stays an HTTP 416. */
function failure(deps: SubsonicDeps, format: Format, thrown: unknown): Response {
  if (thrown instanceof SubsonicError) return errorEnvelope(format, thrown);
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
