import { tracks } from "@edge-music/db";
import { and, or, type SQL, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  contains,
  containsRankOf,
  nearMatch,
  nearRankOf,
  nearWords,
  primaryMatch,
  primaryRankOf,
  searchTerms,
} from "../../src/features/search/matching.ts";
import { SEARCHABLE, type Searchable, searchStatement } from "../../src/features/search/queries.ts";
import { insertArtist, withConnection } from "../support/factories.ts";
import { addLikes, insertPlaylist, marker } from "./support.ts";

/*
 * A search runs as two scans, the second only when the first found too few rows ranked 1 or
 * more (matching.ts). Its results must be exactly those of the plain query over every condition
 * at once: same rows, same order, same ranks. Both run on one snapshot, so rows other suites add
 * meanwhile cannot tell them apart.
 */

const WORDS = ["love", "lover", "glove", "night", "midnight", "serenade", "café", "東京", "夜"];
const m = marker();

beforeAll(async () => {
  const artist = await insertArtist();
  // Titles that give every tier something: exact, full text, prefix, substring, near spellings.
  const titles = [
    m,
    `${m} love`,
    `love ${m}`,
    `lovers in the night ${m}`,
    `glove box ${m}`,
    // For "lover": a substring inside a word, ranked below a near spelling.
    `clovers ${m}`,
    `lovee ${m}`,
    `midnight serenade ${m}`,
    `midnite ${m}`,
    `serenad ${m}`,
    `Café Nuit ${m}`,
    `東京の夜 ${m}`,
    `夜 ${m}`,
  ];
  await withConnection((db) =>
    db
      .insert(tracks)
      .values(
        titles.map((title) => ({ artistId: artist.id, title, processingStatus: "READY" as const })),
      ),
  );
  // Playlists of the same titles, 0–2 likes each: ties in rank broken by a like count.
  for (const [i, title] of titles.entries()) {
    const playlist = await insertPlaylist({ title });
    await addLikes(playlist.id, i % 3);
  }
});

/**
 * The query as it would be written without tiers or cuts: one scan, every condition, each row's
 * rank and tie-breakers, one sort.
 */
function plainStatement(searchable: Searchable, q: string, limit: number): SQL {
  const terms = searchTerms(q);
  const { table, fields, visible, tieBreakers } = searchable;
  const primary = primaryMatch(table, terms);
  const inside = contains(table, terms);
  const near = terms.fuzzy ? nearMatch(table, terms) : sql`false`;
  const rank = sql`(CASE WHEN ${primary} THEN ${primaryRankOf(table, terms)}
    WHEN ${inside} THEN ${containsRankOf(table, terms)} ELSE ${terms.fuzzy ? nearRankOf(table) : sql`NULL`} END)`;
  return sql`${terms.fuzzy ? sql`WITH near AS MATERIALIZED (${nearWords(terms)}) ` : sql``}
    SELECT ${sql.join(
      Object.entries(fields).map(([name, expr]) => sql`${expr} AS ${sql.identifier(name)}`),
      sql`, `,
    )}, ${rank} AS rank FROM ${table}
    WHERE ${and(visible, or(primary, inside, near))}
    ORDER BY ${sql.join([sql`${rank} DESC`, ...tieBreakers.map((t) => sql`${t} DESC`)], sql`, `)}
    LIMIT ${limit}`;
}

const rowsOf = (result: { rows: Record<string, unknown>[] }) =>
  result.rows.map((row) => `${row.id} ${Number(row.rank).toFixed(9)}`);

describe("the two-scan search", () => {
  it("returns exactly what one scan over every condition returns", async () => {
    const query = fc.oneof(
      fc.constantFrom(...WORDS, m, `${m} love`, "lo", "ni", "midnigt", "serenad", "glov", "cafe"),
      fc
        .constantFrom(...WORDS)
        .chain((word) =>
          fc.nat(Math.max(0, [...word].length - 1)).map((cut) => [...word].slice(cut).join("")),
        ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("tracks" as const, "playlists" as const),
        query,
        fc.integer({ min: 1, max: 12 }),
        async (type, q, limit) => {
          const [tiered, plain] = await withConnection((db) =>
            db.transaction(
              async (tx) =>
                [
                  await tx.execute(searchStatement(SEARCHABLE[type], searchTerms(q), limit)),
                  await tx.execute(plainStatement(SEARCHABLE[type], q, limit)),
                ] as const,
              { isolationLevel: "repeatable read", accessMode: "read only" },
            ),
          );
          expect(rowsOf(tiered), `${type} q=${q} limit=${limit}`).toEqual(rowsOf(plain));
        },
      ),
      // The first example: two primary rows, one of them weak, and a near spelling between them.
      { numRuns: 60, examples: [["tracks", "lover", 2]] },
    );
  });
});
