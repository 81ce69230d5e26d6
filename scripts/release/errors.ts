/**
 * A release step that must stop, with a message written for the maintainer who reads the log.
 * The CLI prints the message alone (no stack) and exits non-zero.
 */
export class ReleaseError extends Error {
  override readonly name = "ReleaseError";
}

/** The cut or a deploy was refused before it changed anything; every reason is listed. */
export class RefusedError extends ReleaseError {
  constructor(readonly reasons: string[]) {
    super(`refused:\n${reasons.map((reason) => `  - ${reason}`).join("\n")}`);
  }
}
