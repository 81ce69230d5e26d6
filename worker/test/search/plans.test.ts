import { albums, artists, playlists, tracks } from "@edge-music/db";
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { matches, searchTerms } from "../../src/features/search/matching.ts";
import { findTracks } from "../../src/features/search/queries.ts";
import { withDb } from "../support/factories.ts";

/**
 * The match must repeat the indexes' exact expressions, or Postgres scans every row. With
 * sequential scans priced out (in a transaction of our own, read-only), the plan shows whether
 * the full-text and trigram GIN indexes can serve the query. Which plan wins on real data is
 * the planner's business; that it can use them is ours.
 */
async function planOf(query: SQL | { getSQL(): SQL }): Promise<string> {
  return await withDb((db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = await tx.execute(sql`EXPLAIN (COSTS OFF) ${query}`);
      return result.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
    }),
  );
}

const COLUMNS: Array<[string, AnyPgColumn, string]> = [
  ["tracks", tracks.title, "tracks_title"],
  ["artists", artists.username, "artists_username"],
  ["albums", albums.title, "albums_title"],
  ["playlists", playlists.title, "playlists_title"],
];

describe("search plans", () => {
  it.each(COLUMNS)(
    "%s: full text, substring and typo paths use the GIN indexes",
    async (table, column, prefix) => {
      const plan = await planOf(
        sql`SELECT 1 FROM ${sql.identifier(table)} WHERE ${matches(column, searchTerms("metalica"))}`,
      );
      expect(plan).toContain("BitmapOr");
      expect(plan).toContain(`Bitmap Index Scan on ${prefix}_fts_idx`);
      // Twice: once for LIKE, once for `<%`.
      expect(plan.split(`Bitmap Index Scan on ${prefix}_trgm_idx`)).toHaveLength(3);
      expect(plan).not.toContain("Seq Scan");
    },
  );

  it("the whole track query reads the indexes, not the table", async () => {
    const plan = await withDb((db) => planOf(findTracks(db, searchTerms("love"), 10)));
    expect(plan).toContain("Bitmap Index Scan on tracks_title_fts_idx");
    expect(plan).toContain("Bitmap Index Scan on tracks_title_trgm_idx");
    expect(plan).not.toContain("Seq Scan");
  });
});

describe("searchTerms", () => {
  it.each([
    ["  love   me  ", "love me", true],
    ["abc", "abc", false],
    ["a b c d", "a b c d", false],
    ["abcd", "abcd", true],
    ["東京フラ", "東京フラ", true],
    ["12 34", "12 34", false],
    ["2024", "2024", true],
  ])("%j → %j, typo-tolerant: %s", (q, text, fuzzy) => {
    expect(searchTerms(q)).toEqual({ text, fuzzy });
  });
});
