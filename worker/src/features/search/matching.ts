import { searchText, searchVector } from "@edge-music/db";
import { or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The SQL of one search, shared by every type. The user's text only ever travels as a bind
 * parameter; every transformation of it (unaccent, lower-casing, LIKE escaping) happens in
 * Postgres, on the same functions the indexes apply to the column. Each helper takes the text
 * anew: drizzle binds it as a separate parameter each time, and the planner folds every
 * expression over a parameter into a constant, which the GIN indexes can then search for.
 */
export interface SearchTerms {
  /** Trimmed, inner whitespace collapsed to single spaces. */
  text: string;
  /** Whether the typo-tolerant path runs: the text has a word of at least FUZZY_MIN_LETTERS. */
  fuzzy: boolean;
}

const FUZZY_MIN_LETTERS = 4;
const LONG_WORD = new RegExp(`[\\p{L}\\p{N}]{${FUZZY_MIN_LETTERS},}`, "u");

export function searchTerms(q: string): SearchTerms {
  const text = q.trim().replace(/\s+/g, " ");
  return { text, fuzzy: LONG_WORD.test(text) };
}

/** The query normalized like `searchText(column)`. */
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

const containsQuery = (column: AnyPgColumn, terms: SearchTerms) =>
  sql`${searchText(column)} LIKE '%' || ${likeLiteral(terms)} || '%' ESCAPE '\\'`;

const startsWithQuery = (column: AnyPgColumn, terms: SearchTerms) =>
  sql`${searchText(column)} LIKE ${likeLiteral(terms)} || '%' ESCAPE '\\'`;

const fullTextMatch = (column: AnyPgColumn, terms: SearchTerms) =>
  sql`${searchVector(column)} @@ ${tsquery(terms)}`;

/**
 * `q <% text`: some extent of the column's words is trigram-similar to the query (pg_trgm's
 * word_similarity ≥ pg_trgm.word_similarity_threshold, 0.6 by default). Unlike `%` on whole
 * titles, it still finds a misspelt word in a long title. Indexed by the trigram GIN index.
 */
const closeToQuery = (column: AnyPgColumn, terms: SearchTerms) =>
  sql`${normalized(terms)} <% ${searchText(column)}`;

/** Rows of the column that match: full text, or substring, or (long words) a near spelling. */
export function matches(column: AnyPgColumn, terms: SearchTerms): SQL {
  const conditions = [fullTextMatch(column, terms), containsQuery(column, terms)];
  if (terms.fuzzy) conditions.push(closeToQuery(column, terms));
  return or(...conditions) as SQL;
}

/**
 * Relevance as one number, tiers that never overlap: 3 exact match (after unaccent and
 * lower-casing); 2 + 0.9 × ts_rank for full-text matches (normalization 1|32: shorter titles
 * first, scaled into [0, 1)); 1 + 0.9 × similarity for prefix matches (closer to the whole
 * title first); 0.9 × word_similarity for the rest (substring inside a word, typos).
 */
export function rankOf(column: AnyPgColumn, terms: SearchTerms): SQL<number> {
  const text = searchText(column);
  return sql<number>`(CASE
    WHEN ${text} = ${normalized(terms)} THEN 3
    WHEN ${fullTextMatch(column, terms)}
      THEN 2 + 0.9 * ts_rank(${searchVector(column)}, ${tsquery(terms)}, 33)
    WHEN ${startsWithQuery(column, terms)} THEN 1 + 0.9 * similarity(${normalized(terms)}, ${text})
    ELSE 0.9 * word_similarity(${normalized(terms)}, ${text})
  END)::double precision`.mapWith(Number);
}

/** The output column the queries order by first. */
export const RANK = "rank";
export const byRank = sql`${sql.identifier(RANK)} DESC`;
