import { artists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { found, marker, oursIn } from "./support.ts";

/*
 * Real words, so each case shows what a listener would type. Other suites may hold rows with the
 * same words, so each test checks only its own rows (each title also carries a unique marker):
 * that they are found, and in which relative order.
 */

async function tracksTitled(...titles: string[]) {
  const artist = await insertArtist();
  const rows = [];
  for (const title of titles) rows.push(await insertTrack(artist.id, { title }));
  return rows;
}

const rankOf = (items: Awaited<ReturnType<typeof found>>, id: string | undefined) =>
  items.find((item) => item.id === id)?.rank ?? Number.NaN;

describe("GET /search: what matches", () => {
  it("ignores diacritics on both sides: beyonce finds Beyoncé, dvorak finds Dvořák", async () => {
    const m = marker();
    const [beyonce, dvorak, plain] = await tracksTitled(
      `Beyoncé ${m}`,
      `Dvořák ${m}`,
      `Beyonce ${m}`,
    );
    const ours = [beyonce, dvorak, plain].flatMap((row) => (row ? [row] : []));
    expect(oursIn(await found("tracks", "beyonce"), ours).sort()).toEqual(
      [beyonce?.id, plain?.id].sort(),
    );
    expect(oursIn(await found("tracks", "BEYONCÉ"), ours).sort()).toEqual(
      [beyonce?.id, plain?.id].sort(),
    );
    expect(oursIn(await found("tracks", "dvorak"), ours)).toEqual([dvorak?.id]);
    // A partial word is no full-text match: the prefix tier shows the substring path unaccents.
    expect(rankOf(await found("tracks", "dvora"), dvorak?.id)).toBeGreaterThanOrEqual(1);
  });

  it("finds partial words: ove finds Love", async () => {
    const [love] = await tracksTitled(`Love ${marker()}`);
    expect(oursIn(await found("tracks", "ove"), [love ?? { id: "" }])).toEqual([love?.id]);
  });

  it("stems English words: loving finds Love, as a full-text match", async () => {
    const [love] = await tracksTitled(`Love ${marker()}`);
    const items = await found("tracks", "loving");
    expect(oursIn(items, [love ?? { id: "" }])).toEqual([love?.id]);
    expect(rankOf(items, love?.id)).toBeGreaterThanOrEqual(2);
  });

  it("finds substrings in scripts without spaces: 東京 finds 東京フラッシュ", async () => {
    const m = marker();
    const [start, middle, other] = await tracksTitled(
      `東京フラッシュ ${m}`,
      `夜の東京 ${m}`,
      `大阪 ${m}`,
    );
    const ours = [start, middle, other].flatMap((row) => (row ? [row] : []));
    // The title that starts with the query ranks first (prefix).
    expect(oursIn(await found("tracks", "東京"), ours)).toEqual([start?.id, middle?.id]);
  });

  it("forgives a typo in a word of 4+ letters, below exact and full-text matches", async () => {
    const m = marker();
    const [exact, fullText, typo, typoInLongTitle, unrelated] = await tracksTitled(
      "Metalica",
      `Metalica ${m}`,
      `Metallica ${m}`,
      `Live in Moscow with the symphony orchestra, Metallica ${m}`,
      `Megadeth ${m}`,
    );
    const ours = [exact, fullText, typo, typoInLongTitle, unrelated].flatMap((r) => (r ? [r] : []));
    const items = await found("tracks", "metalica");
    const order = oursIn(items, ours);
    expect(order.slice(0, 2)).toEqual([exact?.id, fullText?.id]);
    // The same near word: the title it makes up more of first.
    expect(order.slice(2)).toEqual([typo?.id, typoInLongTitle?.id]);
    expect(rankOf(items, typo?.id)).toBeLessThan(1);
  });

  it("forgives a letter missing, extra or wrong: one edit in a word of 4–5 letters, two in longer ones", async () => {
    const m = marker();
    const [serenade, electric, seven, ten] = await tracksTitled(
      `Serenade ${m}`,
      `Electric ${m}`,
      `zqxvbwy ${m}`,
      `zqxvbwyklm ${m}`,
    );
    const ours = [serenade, electric, seven, ten].flatMap((row) => (row ? [row] : []));
    // Every query also holds the marker, a word only these titles have: each finds ours only.
    const near = async (typo: string) => oursIn(await found("tracks", `${typo} ${m}`), ours);
    // A letter missing inside a 7-letter word (trigram word_similarity 0.55).
    expect(await near("sernade")).toEqual([serenade?.id]);
    expect(await near("serenadr")).toEqual([serenade?.id]);
    // Two letters swapped are two edits: allowed in an 8-letter word.
    expect(await near("elecrtic")).toEqual([electric?.id]);
    // 5 letters, two edits from a 7-letter word (trigram similarity 0.4): not a typo of it.
    expect(await near("zqxvy")).toEqual([]);
    expect(await near("zqxvwy")).toEqual([seven?.id]);
    // Two edits from a 10-letter word are forgiven, three are not (similarity 0.38).
    expect(await near("zqxbwykm")).toEqual([ten?.id]);
    expect(await near("zqxvbwkxxm")).toEqual([]);
  });

  it("forgives a typo in every long word of a phrase, and wants each of them found", async () => {
    const m = marker();
    const [both, first, second] = await tracksTitled(
      `Midnight Train ${m}`,
      `Midnight ${m}`,
      `Train ${m}`,
    );
    const ours = [both, first, second].flatMap((row) => (row ? [row] : []));
    expect(oursIn(await found("tracks", `midnigt trainn ${m}`), ours)).toEqual([both?.id]);
  });

  it("forgives no typos when no word of the query has 4 letters", async () => {
    // "x y z w" is trigram-close to "X Y Z …" (word_similarity 0.75) but is no substring of it.
    const [close] = await tracksTitled(`X Y Z ${marker()}`);
    expect(oursIn(await found("tracks", "x y z w"), [close ?? { id: "" }])).toEqual([]);
  });
});

describe("GET /search: ranking", () => {
  it("ranks exact, then full text (shorter first), then prefix (closer first), then the rest", async () => {
    const m = marker();
    const typoOfM = `${m.slice(0, 7)}${m[6]}${m.slice(7)}`;
    const rows = await tracksTitled(
      `in the middle xy${m}`,
      `${m}abcdefgh`,
      `${m} with a much longer title around it`,
      typoOfM,
      `${m}ab`,
      `${m} song`,
      m.toUpperCase(),
    );
    const [inside, longPrefix, longFullText, typo, shortPrefix, shortFullText, exact] = rows;
    const items = await found("tracks", m);
    expect(items.map((item) => item.id)).toEqual([
      exact?.id,
      shortFullText?.id,
      longFullText?.id,
      shortPrefix?.id,
      longPrefix?.id,
      ...items.slice(5).map((item) => item.id),
    ]);
    expect(
      items
        .slice(5)
        .map((item) => item.id)
        .sort(),
    ).toEqual([inside?.id, typo?.id].sort());
    const ranks = items.map((item) => item.rank);
    expect(ranks[0]).toBe(3);
    for (const rank of ranks.slice(1, 3)) expect(rank >= 2 && rank < 3).toBe(true);
    for (const rank of ranks.slice(3, 5)) expect(rank >= 1 && rank < 2).toBe(true);
    for (const rank of ranks.slice(5)) expect(rank >= 0 && rank < 1).toBe(true);
  });
});

/**
 * `length` random lower-case letters, all different and none of `taken`: a word no other row has
 * (with the `zq` start of markers) whose trigrams are all different, so that every similarity
 * below is the same whatever letters are drawn.
 */
function letters(length: number, taken = "zq"): string {
  const pool = [..."abcdefghijklmnoprstuvwxy"].filter((letter) => !taken.includes(letter));
  const out: string[] = [];
  for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
    out.push(...pool.splice(byte % pool.length, 1));
  }
  return out.join("");
}

describe("GET /search: artists by the names people type", () => {
  // Like "Luna Harbor" and "lunaharbor911": two words, and a handle that runs them together.
  const first = `zq${letters(3)}`;
  const second = letters(6, first);
  const handle = `${first}${second}911`;

  it("finds a handle typed with spaces, with a typo near its start, or with a letter extra", async () => {
    const artist = await insertArtist({ username: handle });
    const rankFor = async (q: string) => rankOf(await found("artists", q), artist.id);
    // Word-split: "luna harbor" → lunaharbor911, the exact start of the handle.
    expect(await rankFor(`${first} ${second}`)).toBeCloseTo(0.9, 5);
    // Prefix + typo: a letter missing near the start ("lunharbor"), one extra ("lunaharbour").
    const missing = `${first.slice(0, 3)}${first.slice(4)}${second}`;
    const extra = `${first}${second.slice(0, -1)}u${second.slice(-1)}`;
    const oneEdit = 0.9 * (1 - 1 / (missing.length + 1));
    expect(await rankFor(missing)).toBeCloseTo(oneEdit, 5);
    expect(await rankFor(extra)).toBeCloseTo(0.9 * (1 - 1 / (extra.length + 1)), 5);
    // The handle's own prefix stays a prefix match; the whole handle is exact.
    expect(await rankFor(`${first}${second}`)).toBeGreaterThanOrEqual(1);
    expect(await rankFor(handle)).toBe(3);
    // Too far from either name: three letters wrong in the first five (no name holds a "q" there).
    expect(await rankFor(`${first.slice(0, 2)}qqq${second}`)).toBeNaN();
  });

  it("finds an artist by a display name with spaces and any script, the handle still exact", async () => {
    const username = `${first}${second}x${letters(3, `${first}${second}x`)}`;
    const display = `${first[0]?.toUpperCase()}${first.slice(1)} ${second} 月の港`;
    const artist = await insertArtist({ username });
    await withDb((db) =>
      db.update(artists).set({ displayName: display }).where(eq(artists.id, artist.id)),
    );
    const items = await found("artists", `${first} ${second} 月の港`);
    expect(rankOf(items, artist.id)).toBe(3);
    expect(items.find((item) => item.id === artist.id)?.displayName).toBe(display);
    // One word of the display name: a full-text match.
    expect(rankOf(await found("artists", second), artist.id)).toBeGreaterThanOrEqual(2);
    // Typing the display name from its start: a prefix match.
    expect(
      rankOf(await found("artists", `${first} ${second.slice(0, 3)}`), artist.id),
    ).toBeGreaterThanOrEqual(1);
    expect(rankOf(await found("artists", "月の港"), artist.id)).toBeGreaterThan(0);
    expect(rankOf(await found("artists", username), artist.id)).toBe(3);
    // A typo near the start of the display name run together (not the query of the test above:
    // the public answer of a search is edge-cached).
    const typo = `${first.slice(0, 2)}${first.slice(3)}${second}`;
    expect(rankOf(await found("artists", typo), artist.id)).toBeGreaterThan(0.8);
  });

  it("track results carry their artist's id and names", async () => {
    const artist = await insertArtist({ username: `${first}${letters(8, first)}` });
    const m = marker();
    await insertTrack(artist.id, { title: `Harbour Lights ${m}` });
    const [item] = await found("tracks", m);
    expect(item?.artist).toEqual({ id: artist.id, username: artist.username, displayName: null });
  });
});
