import fc from "fast-check";

/** Text an attacker sends where a field, id or query value is expected. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "..",
    "../",
    "../../etc/passwd",
    "..%2f..%2fetc%2fpasswd",
    "%00",
    "%",
    "%zz",
    "%E0%A4%A",
    "null",
    "undefined",
    "NaN",
    "-1",
    "0",
    "1e999",
    "0x10",
    "9".repeat(40),
    "' OR 1=1 --",
    "%' OR '%'='",
    "\\",
    "<script>alert(1)</script>",
    "{{7*7}}",
    "\u202e\u0301\ufeff",
    "😀".repeat(50),
    "\ud800",
    "\udfff\ud800",
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "{0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192}",
    "0195f3a48c1e7d2a9b3c4d5e6f708192",
    "0195F3A4-8C1E-7D2A-9B3C-4D5E6F708192",
    " 0195f3a4-8c1e-7d2a-9b3c-4d5e6f708192",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(10_000, 100_000).map((n) => "a".repeat(n)),
);

/** Any id-like value for a path segment: uuid-shaped, not, huge, unicode, traversal. */
export const hostileId: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.replace(/-/g, "")),
  hostileString,
);

/**
 * `encodeURIComponent`, except that it never throws: lone surrogates are sent as the bytes a
 * careless client would send (CESU-8), which are not valid UTF-8. Well-formed runs are encoded
 * whole: character by character, the 100,000-character values took seconds of the fuzz files' CPU.
 */
export function encodeSegment(value: string): string {
  return value.replace(/(\p{Cs})|\P{Cs}+/gu, (run, lone: string | undefined) => {
    if (lone === undefined) return encodeURIComponent(run);
    const code = lone.charCodeAt(0);
    return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
  });
}

/**
 * Printable ASCII: header values cannot hold CR, LF or NUL, and workerd re-encodes anything
 * above ASCII as UTF-8 (with a warning per request), so wider text would test nothing more.
 */
export const headerText = (maxLength = 60): fc.Arbitrary<string> =>
  fc.string({ unit: "binary-ascii", maxLength }).map((text) => text.replace(/[^\x20-\x7e]/g, "~"));

const hugeHeader = fc.constantFrom(8_000, 60_000).map((n) => "h".repeat(n));

/** Cookies a browser or a script might send: broken, duplicated, huge, quoted. */
export const oddCookie: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "access_token=",
    "access_token",
    "access_token=a.b.c",
    "access_token=..",
    'access_token="quoted"',
    "access_token=%E0%A4%A",
    "access_token=eyJhbGciOiJub25lIn0.e30.",
    "=;;=;",
    ";",
    "refresh_token=x; access_token=y; access_token=z",
    "oauth_state=garbage; pending_2fa=garbage",
  ),
  hugeHeader.map((h) => `access_token=${h}`),
  headerText().map((text) => `access_token=${text}`),
  headerText(),
);

/** Range headers: valid, reversed, suffix, multiple, absurd, other units. */
export const rangeHeader: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "bytes=0-",
    "bytes=0-0",
    "bytes=-1",
    "bytes=-0",
    "bytes=5-1",
    "bytes=0-0,2-3",
    "bytes=abc",
    "bytes=",
    "bytes=99999999999999999999-",
    "bytes=0-18446744073709551616",
    "bytes=-99999999999999999999",
    "items=0-1",
    "bytes 0-1",
    "",
  ),
  fc
    .tuple(fc.nat({ max: 1 << 20 }), fc.option(fc.nat({ max: 1 << 20 })))
    .map(([from, to]) => `bytes=${from}-${to ?? ""}`),
  headerText().map((text) => `bytes=${text}`),
);

/** Content types that may or may not match the body. */
export const contentType: fc.Arbitrary<string> = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "application/problem+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=zzz",
  "application/octet-stream",
  "",
  "garbage/\u00ff",
);

/** Headers that are not about the body: request ids, addresses, caching, origins, sizes. */
const someExtraHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    "x-request-id": fc.oneof(headerText(200), hugeHeader),
    "cf-connecting-ip": fc.oneof(
      fc.constantFrom("::1", "not-an-ip", "1.2.3.4, 5.6.7.8", ""),
      hugeHeader,
    ),
    "if-none-match": fc.oneof(fc.constantFrom("*", '"x"', 'W/"x"', '"'), headerText()),
    origin: fc.constantFrom("http://localhost:5173", "https://evil.example", "null"),
    "sec-fetch-site": fc.constantFrom("cross-site", "same-origin", "none"),
    accept: fc.oneof(fc.constantFrom("*/*", "text/html", "application/json"), hugeHeader),
    "accept-encoding": fc.constantFrom("gzip", "br", "identity;q=0", "*"),
  },
  { requiredKeys: [] },
);

/** Mostly none: a cross-site Origin alone answers 403 before any validation runs. */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: someExtraHeaders },
);
