import { missingParameter, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";

/**
 * What a Subsonic request claims to be, read from its parameters without the database: a
 * username with a token and its salt (`t` = md5(app password + `s`)), a username with the app
 * password itself (`p`, plain or `enc:` + hex), or an app password alone as the OpenSubsonic
 * `apiKey`.
 */
export type Claim =
  | { form: "token"; username: string; token: string; salt: string }
  | { form: "password"; username: string; password: string }
  | { form: "apiKey"; apiKey: string };

/**
 * The claim of a request, or the protocol's error: 43 for two mechanisms at once (`apiKey` with
 * `u`, or `p` with `t`/`s`); 42 for a request that brings only what this door never reads (the
 * REST session's cookie or an Authorization header); 10 for a missing part.
 */
export function readClaim(params: URLSearchParams, otherCredential: boolean): Claim {
  const get = (name: string) => params.get(name) ?? undefined;
  const [apiKey, username, password, token, salt] = ["apiKey", "u", "p", "t", "s"].map(get);
  if (apiKey !== undefined) {
    if (username !== undefined || password !== undefined || token !== undefined) {
      throw new SubsonicError(
        SUBSONIC_ERRORS.conflictingMechanisms,
        "Multiple conflicting authentication mechanisms provided: an apiKey goes without u, p or t.",
      );
    }
    return { form: "apiKey", apiKey };
  }
  if (username === undefined) {
    if (password === undefined && token === undefined && otherCredential) {
      throw new SubsonicError(
        SUBSONIC_ERRORS.mechanismNotSupported,
        "Provided authentication mechanism not supported: this API takes an app password (u with t and s, or p) or an apiKey, never the web session.",
      );
    }
    throw missingParameter("u");
  }
  if (password !== undefined && (token !== undefined || salt !== undefined)) {
    throw new SubsonicError(
      SUBSONIC_ERRORS.conflictingMechanisms,
      "Multiple conflicting authentication mechanisms provided: p, or t with s, not both.",
    );
  }
  if (password !== undefined) return { form: "password", username, password: decodeHex(password) };
  if (token === undefined) throw missingParameter("t");
  if (salt === undefined) throw missingParameter("s");
  return { form: "token", username, token: token.toLowerCase(), salt };
}

/** `enc:` + hex, as old clients send the password; anything else as it is. */
function decodeHex(password: string): string {
  if (!password.startsWith("enc:")) return password;
  const hex = password.slice(4);
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) return password;
  const bytes = new Uint8Array(hex.length / 2).map((_, i) =>
    Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16),
  );
  return new TextDecoder().decode(bytes);
}
