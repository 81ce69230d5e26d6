import { or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The SQL of one search, shared by every type. The user's text only ever travels as a bind
 * parameter; every transformation of it (unaccent, lower-casing, LIKE escaping) happens in
 * Postgres, with the functions that fill the tables' generated `search_text` and `search_vector`
 * columns. Each helper takes the text anew: drizzle binds it as a separate parameter each time,
 * and the planner folds every expression over a parameter into a constant, which the indexes
 * can then search for.
 */
export interface SearchTerms {
  /** Trimmed, inner whitespace collapsed to single spaces. */
  text: string;
  /** Whether the typo-tolerant path runs: the text has a word of at least FUZZY_MIN_LETTERS. */
  fuzzy: boolean;
}

/** The generated search columns of a searchable table (db/src/schema/search.ts). */
export interface SearchColumns {
  searchText: AnyPgColumn;
  searchVector: AnyPgColumn;
}

const FUZZY_MIN_LETTERS = 4;
const LONG_WORD = new RegExp(`[\\p{L}\\p{N}]{${FUZZY_MIN_LETTERS},}`, "u");

export function searchTerms(q: string): SearchTerms {
  const text = q.trim().replace(/\s+/g, " ");
  return { text, fuzzy: LONG_WORD.test(text) };
}

/** The query normalized like the `search_text` columns. */
const normalized = (terms: SearchTerms) => sql`lower(public.immutable_unaccent(${terms.text}))`;

/** The query as an English tsquery; websearch syntax never raises a syntax error. */
const tsquery = (terms: SearchTerms) =>
  sql`websearch_to_tsquery('english', public.immutable_unaccent(${terms.text}))`;

/**
 * The normalized query with LIKE's escape character and wildcards escaped (`\` first). Done
 * after unaccent, in case a folded character becomes one of them.
 */
const likeLiteral = (terms: SearchTerms) =>
  sql`replace(replace(replace(${normalized(terms)}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;

const contains = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchText} LIKE '%' || ${likeLiteral(terms)} || '%' ESCAPE '\\'`;

const startsWith = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchText} LIKE ${likeLiteral(terms)} || '%' ESCAPE '\\'`;

const equals = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchText} = ${normalized(terms)}`;

const fullText = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchVector} @@ ${tsquery(terms)}`;

/**
 * `q <% text`: some extent of the column's words is trigram-similar to the query (pg_trgm's
 * word_similarity ≥ pg_trgm.word_similarity_threshold, 0.6 by default). Unlike `%` on whole
 * titles, it still finds a misspelt word in a long title. Indexed by the trigram GIN index.
 */
const closeTo = (c: SearchColumns, terms: SearchTerms) =>
  sql`${normalized(terms)} <% ${c.searchText}`;

/*
 * A row matches when its full text matches, or it contains the query, or (words of 4+ letters)
 * it holds a near spelling. Searching is split by rank so that the common case reads few rows:
 * - the primary match: exact (after normalisation), full text, or prefix — every row it finds
 *   ranks 1 or more (rankOf), and each part has an index (B-tree, GIN, B-tree pattern ops);
 * - the secondary match: a substring inside the title, or a near spelling — ranked below 1, so it
 *   is looked for only when fewer than `limit` primary rows were found; the result is then
 *   exactly that of one query over every condition. Ranking is what costs (a trigram
 *   similarity per row), and a common prefix ("lov") is inside many more titles than it starts.
 */
export function primaryMatch(c: SearchColumns, terms: SearchTerms): SQL {
  return or(fullText(c, terms), equals(c, terms), startsWith(c, terms)) as SQL;
}

/** The matches `primaryMatch` leaves out (a trigram index serves both for 3+ characters). */
export function secondaryMatch(c: SearchColumns, terms: SearchTerms): SQL {
  return terms.fuzzy ? (or(contains(c, terms), closeTo(c, terms)) as SQL) : contains(c, terms);
}

/** The lowest rank of an exact, full-text or prefix match; every other match ranks below it. */
export const WEAK_RANK = 1;

/**
 * Relevance as one number, tiers that never overlap: 3 exact match (after unaccent and
 * lower-casing); 2 + 0.9 × ts_rank for full-text matches (normalization 1|32: shorter titles
 * first, scaled into [0, 1)); 1 + 0.9 × the share of the title the query covers for prefix
 * matches (closer to the whole title first: a length per row, where a trigram similarity cost
 * several times more on the thousands of titles a short prefix starts); 0.9 × word_similarity
 * for the rest (substring inside a word, typos), always below WEAK_RANK.
 */
export function rankOf(c: SearchColumns, terms: SearchTerms): SQL<number> {
  return sql<number>`(CASE
    WHEN ${equals(c, terms)} THEN 3
    WHEN ${fullText(c, terms)}
      THEN 2 + 0.9 * ts_rank(${c.searchVector}, ${tsquery(terms)}, 33)
    WHEN ${startsWith(c, terms)}
      THEN 1 + 0.9 * char_length(${normalized(terms)})::double precision / char_length(${c.searchText})
    ELSE ${weakRankOf(c, terms)}
  END)::double precision`;
}

/** The rank of a row that matches only by substring inside a word or by a near spelling. */
export function weakRankOf(c: SearchColumns, terms: SearchTerms): SQL<number> {
  return sql<number>`(0.9 * word_similarity(${normalized(terms)}, ${c.searchText}))::double precision`;
}
