import type { components } from "./schema.d.ts";

/** The API's RFC 9457 problem document, as the OpenAPI document declares it. */
export type Problem = components["schemas"]["Problem"];
export type FieldError = components["schemas"]["FieldError"];

const PROBLEM_TYPES = /^application\/problem\+json\b/i;

/**
 * An answer of the API that is not a success, as a value: the problem document's fields, plus
 * `retryAfter` (seconds, from the Retry-After header of a 429 or 503) when the answer had one.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  /** The whole document, with any extension members (for example `checks` of a 503). */
  readonly problem: Problem;

  constructor(problem: Problem, retryAfter?: number) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = "ProblemError";
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.type = problem.type;
    this.errors = problem.errors ?? [];
    this.requestId = problem.requestId || undefined;
    this.retryAfter = retryAfter;
    this.problem = problem;
  }

  /**
   * The error of a failed answer, from its parsed body. A body that is not a problem document (a
   * proxy's HTML page, an empty 502) still gives a ProblemError, with `code` `HTTP_<status>`.
   */
  static from(response: Response, body: unknown): ProblemError {
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    if (isProblem(body)) return new ProblemError(body, retryAfter);
    const type = response.headers.get("content-type") ?? "";
    const text = typeof body === "string" ? body.slice(0, 200) : "";
    return new ProblemError(
      {
        type: "about:blank",
        title: response.statusText || `HTTP ${response.status}`,
        status: response.status,
        detail: text || `The answer was ${response.status} ${type}`.trim(),
        code: `HTTP_${response.status}`,
        requestId: response.headers.get("x-request-id") ?? "",
      },
      retryAfter,
    );
  }

  /** Reads a failed Response's body (once) and makes its error. */
  static async fromResponse(response: Response): Promise<ProblemError> {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    if (PROBLEM_TYPES.test(response.headers.get("content-type") ?? "") || text.startsWith("{")) {
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON after all: the text stands as the detail.
      }
    }
    return ProblemError.from(response, body);
  }
}

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === "number" && typeof v.code === "string" && typeof v.title === "string";
}

/** Retry-After as seconds: a number of seconds, or an HTTP date from now. */
function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * The data of an openapi-fetch result, or its problem thrown as a ProblemError:
 * `const me = unwrap(await api.GET("/api/v1/artists/auth/me"))`.
 */
export function unwrap<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (!result.response.ok) throw ProblemError.from(result.response, result.error);
  return result.data as D;
}
