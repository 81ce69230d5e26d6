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
  return commonPasswords().has(folded(password));
}

/**
 * The passwords are compared as they are hashed (NFKC, so a full-width "ｐａｓｓｗｏｒｄ１" is
 * "password1"), ignoring case.
 */
const folded = (password: string) => password.normalize("NFKC").toLowerCase();

/**
 * Words of this service that a guesser tries first (ASVS 5.0 6.1.2, 6.2.11): its name and what
 * it is about. A password made only of them, with any digits and symbols around, is refused.
 */
export const CONTEXT_WORDS = ["edge", "music", "stream", "streaming", "listen", "artist", "song"];
const ONLY_CONTEXT_WORDS = new RegExp(`^(?:${CONTEXT_WORDS.join("|")})+$`);

/** Whether `password` is the service's own words dressed up ("EdgeMusic2026!", "music-stream"). */
export function isContextPassword(password: string): boolean {
  const letters = folded(password).replace(/\P{L}+/gu, "");
  return ONLY_CONTEXT_WORDS.test(letters);
}

/** How many passwords the list holds. */
export function commonPasswordCount(): number {
  return commonPasswords().size;
}
