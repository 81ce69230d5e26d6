import { PROBLEM_CONTENT_TYPE } from "../errors/problem.ts";
import { type HeaderName, responseHeaders } from "./headers.ts";

interface DocumentResponse {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}

interface DocumentOperation {
  responses?: Record<string, DocumentResponse>;
  "x-edge-cache"?: unknown;
}

const API = "/api/v1/";
const NOT_MODIFIED: DocumentResponse = {
  description: "Not modified: `If-None-Match` named the current ETag. No body.",
};
/** As problemResponses(413) writes it, after generation (the Problem schema by reference). */
const TOO_LARGE: DocumentResponse = {
  description: "The body is larger than the limit.",
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } } },
};
/** As problemResponses(503) writes it. */
const UNAVAILABLE: DocumentResponse = {
  description: "A dependency is unavailable; retry later.",
  headers: responseHeaders("Retry-After"),
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } } },
};
/** The operations that reach no database, Redis or storage, so never answer 503. */
const SELF_CONTAINED = new Set([
  "get /api/v1/health/live",
  "get /api/v1/openapi.json",
  "get /api/v1/docs",
]);

/**
 * Adds to the generated document what app-wide middleware does to every operation of a kind, so
 * no route repeats it (each rule names the middleware):
 * - X-Request-Id on every response (request-context.ts);
 * - GETs under /api/v1 (app.ts's etag): the ETag of every 200 but an event stream's, and 304
 *   for a matching If-None-Match; Cache-Control on every GET answer and on every problem;
 * - `x-edge-cache` on the answers of routes cached at the edge (edge-cache.ts);
 * - 413 on every operation under /api/v1 that can carry a body (body-limit.ts: 1 MiB);
 * - 503 on every operation that reaches Postgres, Redis or storage (the error handler answers it
 *   when one of them cannot be reached), with Retry-After.
 */
export function declareMiddlewareParts<D extends { paths?: unknown }>(doc: D): D {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, DocumentOperation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.responses ??= {};
      const responses = operation.responses;
      if (path.startsWith(API)) addMiddlewareAnswers(method, responses);
      if (!SELF_CONTAINED.has(`${method} ${path}`))
        responses["503"] ??= structuredClone(UNAVAILABLE);
      for (const [status, response] of Object.entries(responses)) {
        const names = headersOf(method, Number(status), operation, response);
        response.headers = { ...responseHeaders(...names), ...response.headers };
      }
    }
  }
  return doc;
}

function addMiddlewareAnswers(method: string, responses: Record<string, DocumentResponse>) {
  const ok = responses["200"];
  if (method === "get" && ok && !isEventStream(ok)) responses["304"] ??= { ...NOT_MODIFIED };
  if (method !== "get") responses["413"] ??= structuredClone(TOO_LARGE);
}

function headersOf(
  method: string,
  code: number,
  operation: DocumentOperation,
  response: DocumentResponse,
): HeaderName[] {
  const names: HeaderName[] = ["X-Request-Id"];
  if (method === "get" && (code === 200 || code === 304) && !isEventStream(response)) {
    names.push("ETag");
  }
  if (code >= 400 || (method === "get" && code < 400)) names.push("Cache-Control");
  if (operation["x-edge-cache"] && [200, 206, 304].includes(code)) names.push("x-edge-cache");
  return names;
}

const isEventStream = (response: DocumentResponse) =>
  Boolean(response.content?.["text/event-stream"]);
