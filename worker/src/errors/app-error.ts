/**
 * The one error tree of the service. Services throw these; `onError` turns them into
 * RFC 9457 problem documents through the code → status table in `problem.ts`.
 */
export type ErrorCode =
  | "VALIDATION_FAILED"
  | "MALFORMED_REQUEST"
  | "UNAUTHORIZED"
  | "REAUTHENTICATION_REQUIRED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "TRACK_NOT_READY"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RANGE_NOT_SATISFIABLE"
  | "RATE_LIMITED"
  | "SERVICE_UNAVAILABLE"
  | "NOT_IMPLEMENTED"
  | "INTERNAL";

export interface FieldError {
  /** Where the bad value is: `body.email`, `query.limit`, `param.id`, ... */
  path: string;
  message: string;
  code?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra members of the problem document (for example `checks` of the readiness probe). */
  readonly extensions: Record<string, unknown> | undefined;
  /** Response headers the error's status needs (Retry-After of a 429, Content-Range of a 416). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      cause?: unknown;
      extensions?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.extensions = options.extensions;
    this.headers = options.headers ?? {};
  }
}

export class ValidationError extends AppError {
  readonly errors: FieldError[];
  constructor(errors: FieldError[], message = "The request has invalid fields.") {
    super("VALIDATION_FAILED", message);
    this.errors = errors;
  }
}

export class MalformedRequestError extends AppError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("MALFORMED_REQUEST", message, options);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Sign in to continue.") {
    super("UNAUTHORIZED", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do this.") {
    super("FORBIDDEN", message);
  }
}

/**
 * 403 with its own code: the session is too old to prove the owner by itself; the client asks for
 * the password and sends it (re-authentication).
 */
export class ReauthenticationRequiredError extends AppError {
  constructor(message: string) {
    super("REAUTHENTICATION_REQUIRED", message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = "Not found.", options: { extensions?: Record<string, unknown> } = {}) {
    super("NOT_FOUND", message, options);
  }
}

export class ConflictError extends AppError {
  constructor(
    message: string,
    options: { cause?: unknown; extensions?: Record<string, unknown> } = {},
  ) {
    super("CONFLICT", message, options);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super("PAYLOAD_TOO_LARGE", `The request body exceeds the limit of ${limitBytes} bytes.`, {
      extensions: { limitBytes },
    });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super("UNSUPPORTED_MEDIA_TYPE", message);
  }
}

export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message = "Too many requests. Try again later.") {
    super("RATE_LIMITED", message, {
      extensions: { retryAfterSeconds },
      headers: { "retry-after": String(retryAfterSeconds) },
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(
    message: string,
    options: { cause?: unknown; extensions?: Record<string, unknown> } = {},
  ) {
    super("SERVICE_UNAVAILABLE", message, options);
  }
}

/** 501: a form of the answer the service does not make (oEmbed's XML). */
export class NotImplementedError extends AppError {
  constructor(message: string) {
    super("NOT_IMPLEMENTED", message);
  }
}

export class TrackNotReadyError extends AppError {
  constructor(status: string) {
    super(
      "TRACK_NOT_READY",
      `The track cannot be streamed: its conversion is ${status.toLowerCase()}.`,
      {
        extensions: { processingStatus: status },
      },
    );
  }
}

export class RangeNotSatisfiableError extends AppError {
  constructor(readonly size: number) {
    super(
      "RANGE_NOT_SATISFIABLE",
      `The requested range is outside the ${size} bytes of the object.`,
      { headers: { "content-range": `bytes */${size}` } },
    );
  }
}
