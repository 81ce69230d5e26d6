import { tracks } from "@edge-music/db";
import { or, type SQL } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  primaryMatch,
  rankOf,
  searchTerms,
  secondaryMatch,
} from "../../src/features/search/matching.ts";
import { rankedRows, SEARCHABLE, searchStatement } from "../../src/features/search/queries.ts";
import { insertArtist, withDb } from "../support/factories.ts";
import { marker } from "./support.ts";

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
  await withDb((db) =>
    db
      .insert(tracks)
      .values(
        titles.map((title) => ({ artistId: artist.id, title, processingStatus: "READY" as const })),
      ),
  );
});

/** The query as it would be written without tiers: one scan, every condition. */
function plainStatement(q: string, limit: number): SQL {
  const terms = searchTerms(q);
  const table = SEARCHABLE.tracks.table;
  const where = or(primaryMatch(table, terms), secondaryMatch(table, terms)) as SQL;
  return rankedRows(SEARCHABLE.tracks, where, rankOf(table, terms), limit);
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
      fc.asyncProperty(query, fc.integer({ min: 1, max: 12 }), async (q, limit) => {
        const [tiered, plain] = await withDb((db) =>
          db.transaction(
            async (tx) =>
              [
                await tx.execute(searchStatement(SEARCHABLE.tracks, searchTerms(q), limit)),
                await tx.execute(plainStatement(q, limit)),
              ] as const,
            { isolationLevel: "repeatable read", accessMode: "read only" },
          ),
        );
        expect(rowsOf(tiered), `q=${q} limit=${limit}`).toEqual(rowsOf(plain));
      }),
      // The first example: two primary rows, one of them weak, and a near spelling between them.
      { numRuns: 40, examples: [["lover", 2]] },
    );
  });
});
