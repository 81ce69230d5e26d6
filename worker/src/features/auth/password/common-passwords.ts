import { COMMON_PASSWORDS, COMMON_PASSWORDS_MIN_LENGTH } from "./common-passwords.data.ts";

export { COMMON_PASSWORDS_MIN_LENGTH };

let passwords: Set<string> | undefined;

// Split on first use, not at module load: most requests never check a password, and every isolate
// start would otherwise pay for a few thousand Set insertions.
function commonPasswords(): Set<string> {
  passwords ??= new Set(COMMON_PASSWORDS.split("\n"));
  return passwords;
}

/**
 * Whether `password` is among the most frequent passwords (NIST SP 800-63B §3.1.1.2), ignoring case.
 * The list holds only entries of at least COMMON_PASSWORDS_MIN_LENGTH characters: check the minimum
 * length first.
 */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** How many passwords the list holds. */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}
