import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack } from "../support/factories.ts";
import { found, marker, oursIn, SEARCH, search, searchRaw, TYPES } from "./support.ts";

/** What the API must answer for `q`: 200 for 1–200 code points after trimming without NUL. */
function expectedStatus(q: string): 200 | 400 {
  const trimmed = q.trim();
  const length = [...trimmed].length;
  return length >= 1 && length <= 200 && !trimmed.includes("\u0000") ? 200 : 400;
}

/** The answer is the predicted status, and a problem document whenever it is 400. */
async function expectSafe(q: string) {
  const response = await search({ q });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(q)).toBe(expectedStatus(q));
  if (response.status === 200) expect(Object.keys(body)).toEqual([...TYPES]);
  else expect(body).toMatchObject({ status: 400, code: "VALIDATION_FAILED" });
}

const NASTY = [
  "%",
  "_",
  "\\",
  "'",
  '"',
  '""',
  "''",
  "%%",
  "\\%",
  "a & b | !c",
  "<->",
  "a <-> b",
  "<2>",
  ":*",
  "love:*",
  "a:A",
  "(",
  ")",
  "((a)",
  '"unbalanced',
  'unbalanced"',
  "'unbalanced",
  "-",
  "--",
  "- or -",
  "or",
  "the",
  "!",
  "!!",
  "&",
  "|",
  "$1",
  "?",
  "'; DROP TABLE tracks; --",
  "\\x00",
  "\u0000",
  "a\u0000b",
  "🎵🔥",
  "👩‍👩‍👧‍👦",
  "é",
  "\u0301",
  "\uFEFF",
  "\t\n",
  "x".repeat(200),
  "x".repeat(201),
  "🎵".repeat(200),
  "%_\\".repeat(66),
  "ø ß Ω ﷽",
  "東京",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
];

describe("GET /search: hostile text", () => {
  it.each(NASTY.map((q) => [JSON.stringify(q), q]))("is safe with q=%s", async (_, q) => {
    await expectSafe(q);
  });

  it("is safe with any string (property)", async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: "binary", maxLength: 220 }), expectSafe), {
      numRuns: 60,
    });
  });

  it("is safe with any string of graphemes and query syntax (property)", async () => {
    const piece = fc.oneof(
      fc.constantFrom(...NASTY.filter((q) => q.length < 10)),
      fc.string({ unit: "grapheme", maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(" ")),
        expectSafe,
      ),
      { numRuns: 60 },
    );
  });

  it("answers 400 for any type that is not one of the four (property)", async () => {
    const notAType = fc
      .string({ unit: "binary", minLength: 0, maxLength: 20 })
      .filter((t) => !(TYPES as readonly string[]).includes(t) && !t.includes(","));
    await fc.assert(
      fc.asyncProperty(notAType, async (type) => {
        const response = await search({ q: "a", "types[]": type });
        expect(response.status).toBe(400);
      }),
      { numRuns: 30 },
    );
  });

  it.each([
    ["a bare %", "q=%"],
    ["a broken escape", "q=%zz"],
    ["an escaped lone surrogate", "q=%ED%A0%80"],
    ["a truncated UTF-8 sequence", "q=%E2%80"],
    ["invalid UTF-8", "q=%FF%FE"],
  ])("answers 200 for %s in the raw URL, taken as text", async (_, query) => {
    expect((await searchRaw(`${SEARCH}?${query}`)).status).toBe(200);
  });
});

describe("GET /search: LIKE wildcards are literal", () => {
  // Queries without a 4-letter word: no typo tolerance, so only the substring path could match.
  it.each([
    ["_", "zq_k", "zqak"],
    ["%", "50%o", "50 and so on"],
    ["\\", "a\\b", "ab"],
  ])("%s matches itself only", async (_, q, wildcardMatch) => {
    const m = marker();
    const artist = await insertArtist();
    const literal = await insertTrack(artist.id, { title: `${m} ${q}${"x"}` });
    const other = await insertTrack(artist.id, { title: `${m} ${wildcardMatch}x` });
    expect(oursIn(await found("tracks", q), [literal, other])).toEqual([literal.id]);
  });

  it("takes an apostrophe literally and double quotes as a full-text phrase", async () => {
    const artist = await insertArtist();
    const track = await insertTrack(artist.id, { title: `Don't Stop ${marker()}` });
    // "don" and "t" are English stop words: only the substring (with its quote) finds it.
    expect(oursIn(await found("tracks", "don't"), [track])).toEqual([track.id]);
    expect(oursIn(await found("tracks", `"don't stop"`), [track])).toEqual([track.id]);
  });
});
