import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { searchTerms } from "../../src/features/search/matching.ts";
import { SEARCHABLE, searchStatement } from "../../src/features/search/queries.ts";
import { withConnection } from "../support/factories.ts";

/**
 * Every part of a search must be able to use an index, or Postgres reads every row. With
 * sequential scans priced out (in a transaction of our own), the plan shows whether the
 * full-text, trigram and prefix indexes can serve the query. Which plan wins on real data is the
 * planner's business (bench/search.bench.ts); that it can use them is ours.
 */
async function planOf(query: SQL): Promise<string> {
  return await withConnection((db) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const result = await tx.execute(sql`EXPLAIN (COSTS OFF) ${query}`);
      return result.rows.map((row) => String(row["QUERY PLAN"])).join("\n");
    }),
  );
}

/**
 * The plan of the primary scan (the `hits` CTE), and of the rest: the near words and what joins
 * the secondary scans to the primary rows.
 */
function split(plan: string): [string, string] {
  const at = plan.search(/CTE near|->\s+(Merge )?Append/);
  if (at < 0) throw new Error(`no secondary part in the plan:\n${plan}`);
  return [plan.slice(0, at), plan.slice(at)];
}

/**
 * The gate of the secondary scans: a one-time filter on the count of primary rows, directly
 * above the secondary rows' limit, so that nothing below it starts (no near-word lookup, no
 * parallel workers) when the primary rows filled the page.
 */
const GATE =
  /Result\s+One-Time Filter: \(\(InitPlan \d+\)\.col1 < \S+\)\s+InitPlan \d+\s+->\s+Aggregate\s+->\s+CTE Scan on hits \w+\s+Filter: [^\n]+\s+->\s+Limit/;

const TABLES = Object.keys(SEARCHABLE) as Array<keyof typeof SEARCHABLE>;

/**
 * The statement of a type without its visibility filter: on the test database's few playlists,
 * the partial index of public ones is a fair alternative to the search indexes, and would hide
 * whether those can serve the match.
 */
const statementOf = (table: (typeof TABLES)[number], q: string) =>
  searchStatement({ ...SEARCHABLE[table], visible: undefined }, searchTerms(q), 10);

describe("search plans", () => {
  it.each(TABLES)(
    "%s, a long word: full text and prefix, then substring and near spellings, all from indexes",
    async (table) => {
      const plan = await planOf(statementOf(table, "metalica"));
      const [primary, secondary] = split(plan);
      expect(primary, plan).toContain(`Bitmap Index Scan on ${table}_search_vector_idx`);
      // The substring from the trigram index; near words from theirs, their titles by full text.
      expect(secondary, plan).toContain(`Bitmap Index Scan on ${table}_search_text_trgm_idx`);
      expect(secondary, plan).toContain("Bitmap Index Scan on search_words_word_trgm_idx");
      expect(secondary, plan).toContain(`Bitmap Index Scan on ${table}_search_vector_idx`);
      // The secondary scans only run when the primary one found too few; the near words are
      // only read below that gate.
      expect(secondary, plan).toMatch(GATE);
      const joined = secondary.slice(secondary.search(/->\s+(Merge )?Append/));
      expect(joined.search(GATE), plan).toBeLessThan(joined.indexOf("CTE Scan on near"));
      expect(plan).not.toContain("Seq Scan");
    },
  );

  it.each(TABLES)(
    "%s, a 3-letter query: exact, full text and prefix first; substrings only if too few",
    async (table) => {
      const plan = await planOf(statementOf(table, "lov"));
      const [primary, secondary] = split(plan);
      expect(primary, plan).toContain(`Bitmap Index Scan on ${table}_search_vector_idx`);
      expect(primary, plan).toContain(`${table}_search_text_prefix_idx`);
      expect(secondary, plan).toContain(`Bitmap Index Scan on ${table}_search_text_trgm_idx`);
      expect(secondary, plan).toMatch(GATE);
      expect(plan).not.toContain("Seq Scan");
    },
  );

  it.each(TABLES)(
    "%s, 1–2 characters: equality and prefix from the B-tree before any substring scan",
    async (table) => {
      const plan = await planOf(statementOf(table, "lo"));
      const [primary, secondary] = split(plan);
      expect(primary).toContain(`${table}_search_text_prefix_idx`);
      expect(primary).toContain(`Bitmap Index Scan on ${table}_search_vector_idx`);
      expect(secondary, plan).toMatch(GATE);
    },
  );
});

describe("search plans of names", () => {
  it("artists: a name typed run together is looked for in both names' trigram indexes, below the gate", async () => {
    const plan = await planOf(statementOf("artists", "luna harbour"));
    const [primary, secondary] = split(plan);
    // The username's own prefix index serves a prefix of the second name.
    expect(primary, plan).toContain("artists_username_search_prefix_idx");
    expect(secondary, plan).toContain("Bitmap Index Scan on artists_search_handle_trgm_idx");
    expect(secondary, plan).toContain("Bitmap Index Scan on artists_search_display_trgm_idx");
    expect(secondary, plan).toMatch(GATE);
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
