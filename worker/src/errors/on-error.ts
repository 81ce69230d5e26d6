import { FOREIGN_KEY_VIOLATION, isConnectionLost, pgErrorCode } from "@edge-music/db";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../app-env.ts";
import { describeError } from "../logger.ts";
import { SESSION_ENDED } from "../security/sessions.ts";
import { StorageUnavailableError } from "../storage/port.ts";
import { AppError, type ErrorCode, UnauthorizedError, ValidationError } from "./app-error.ts";
import { PROBLEM_TYPES, problem, problemResponse } from "./problem.ts";

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(PROBLEM_TYPES).map(([code, { status }]) => [status, code as ErrorCode]),
);
CODE_BY_STATUS.set(400, "MALFORMED_REQUEST");

/**
 * SQLSTATE classes of a database that cannot take the request now: 08 connection exception,
 * 53 insufficient resources (53300 too many connections), 57P01–57P03 shutting down or starting.
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[123])/;

const isUnavailable = (error: Error) =>
  error instanceof StorageUnavailableError ||
  UNAVAILABLE_SQLSTATE.test(pgErrorCode(error) ?? "") ||
  isConnectionLost(error);

/**
 * The one error handler, three tiers: our own errors carry their code and a client-safe message;
 * Hono's HTTPExceptions (malformed JSON, ...) keep their status; anything else is logged with
 * the request id and answered with a 500 that reveals nothing.
 */
export function onError(thrown: Error, c: Context<AppEnv>): Response {
  const requestId = c.get("requestId") ?? crypto.randomUUID();
  const log = c.get("log");
  // The session check that rode on the request's first round trip refused it.
  const error =
    pgErrorCode(thrown) === SESSION_ENDED
      ? new UnauthorizedError("The session has ended. Sign in again.")
      : thrown;
  if (error instanceof AppError) {
    const body = problem(error.code, error.message, requestId, {
      ...(error instanceof ValidationError ? { errors: error.errors } : {}),
      ...(error.extensions ? { extensions: error.extensions } : {}),
    });
    // 501 is a form the service declines to make (oEmbed's XML), not a failure of ours.
    if (body.status >= 500 && error.code !== "NOT_IMPLEMENTED")
      log?.error(error.message, { code: error.code, ...describeError(error) });
    return problemResponse(body, { ...error.headers, "x-request-id": requestId });
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code = CODE_BY_STATUS.get(error.status) ?? "MALFORMED_REQUEST";
    // Hono's own messages ("Malformed JSON in request body") are safe to show.
    const detail = error.message || PROBLEM_TYPES[code].title;
    const body = { ...problem(code, detail, requestId), status: error.status };
    return problemResponse(body, { "x-request-id": requestId });
  }
  // Safety net: Postgres refused a value the validators let through (a NUL byte, a number out
  // of range, an impossible date). That is the client's input, not our failure: 400, not 500.
  if (pgErrorCode(error)?.startsWith("22")) {
    log?.warn("input refused by the database", describeError(error));
    return problemResponse(
      problem("MALFORMED_REQUEST", "A value in the request cannot be stored.", requestId),
      { "x-request-id": requestId },
    );
  }
  if (isUnavailable(error)) {
    // Out of connections, shutting down, or the connection broke: the next try may well work.
    log?.warn("a backing service is unavailable", describeError(error));
    return problemResponse(
      problem("SERVICE_UNAVAILABLE", "The service is busy. Try again shortly.", requestId),
      { "x-request-id": requestId, "retry-after": "1" },
    );
  }
  if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) {
    // Something the request refers to was deleted while it ran.
    log?.warn("a referenced row vanished", describeError(error));
    return problemResponse(
      problem("CONFLICT", "Something this request refers to no longer exists.", requestId),
      { "x-request-id": requestId },
    );
  }
  (log ?? console).error("unhandled error", describeError(error));
  return problemResponse(problem("INTERNAL", "An unexpected error occurred.", requestId), {
    "x-request-id": requestId,
  });
}
