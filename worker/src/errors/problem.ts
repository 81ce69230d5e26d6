import type { ErrorCode, FieldError } from "./app-error.ts";

/** RFC 9457 problem details, the body of every error response. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** The one code → (status, title) table. */
export const PROBLEM_TYPES: Record<ErrorCode, { status: number; title: string }> = {
  VALIDATION_FAILED: { status: 400, title: "Invalid request" },
  MALFORMED_REQUEST: { status: 400, title: "Malformed request" },
  UNAUTHORIZED: { status: 401, title: "Unauthorized" },
  // Before FORBIDDEN: a bare 403 (HTTPException) maps to the last code of its status.
  REAUTHENTICATION_REQUIRED: { status: 403, title: "Re-authentication required" },
  FORBIDDEN: { status: 403, title: "Forbidden" },
  // Before NOT_FOUND: a bare 404 (HTTPException) maps to the last code of its status.
  TRACK_NOT_READY: { status: 404, title: "Track not ready" },
  NOT_FOUND: { status: 404, title: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed" },
  CONFLICT: { status: 409, title: "Conflict" },
  PAYLOAD_TOO_LARGE: { status: 413, title: "Payload too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type" },
  RANGE_NOT_SATISFIABLE: { status: 416, title: "Range not satisfiable" },
  RATE_LIMITED: { status: 429, title: "Too many requests" },
  SERVICE_UNAVAILABLE: { status: 503, title: "Service unavailable" },
  NOT_IMPLEMENTED: { status: 501, title: "Not implemented" },
  INTERNAL: { status: 500, title: "Internal server error" },
};

/**
 * `type` is a stable URI per code. A URN, because it identifies the kind of problem without
 * promising a page; the API reference lists every code.
 */
export function problemTypeUri(code: ErrorCode): string {
  return `urn:problem-type:edge-music:${code.toLowerCase().replaceAll("_", "-")}`;
}

export function problem(
  code: ErrorCode,
  detail: string,
  requestId: string,
  extra: { errors?: FieldError[]; extensions?: Record<string, unknown> } = {},
): Problem {
  const { status, title } = PROBLEM_TYPES[code];
  return {
    ...extra.extensions,
    type: problemTypeUri(code),
    title,
    status,
    detail,
    code,
    requestId,
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
}

export function problemResponse(body: Problem, headers: HeadersInit = {}): Response {
  const response = new Response(JSON.stringify(body), {
    status: body.status,
    headers,
  });
  response.headers.set("content-type", PROBLEM_CONTENT_TYPE);
  response.headers.set("cache-control", "no-store");
  return response;
}
