/**
 * The error codes of the Subsonic protocol as OpenSubsonic defines them. Answered with HTTP 200
 * inside `subsonic-response` (status "failed"), never as a problem document: apps read the code.
 */
export const SUBSONIC_ERRORS = {
  generic: 0,
  missingParameter: 10,
  wrongCredentials: 40,
  /** Never answered: token authentication works for every account (ADR 0024). */
  tokenAuthNotSupported: 41,
  mechanismNotSupported: 42,
  conflictingMechanisms: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;

export type SubsonicErrorCode = (typeof SUBSONIC_ERRORS)[keyof typeof SUBSONIC_ERRORS];

/** A protocol error: its code and a sentence an app may show. */
export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SubsonicError";
  }
}

export const missingParameter = (name: string) =>
  new SubsonicError(SUBSONIC_ERRORS.missingParameter, `Required parameter '${name}' is missing.`);

export const notFound = (what: string) =>
  new SubsonicError(SUBSONIC_ERRORS.notFound, `${what} was not found.`);
