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

/**
 * A table searched by names people type (artists: a display name and a username; ADR 0022):
 * `search_text` holds both, the display name first. `handle` is the username's search form,
 * whose prefix has an index of its own (a prefix of the second name is no prefix of
 * `search_text`); `forms` are each name's search form, for the exact tier; `compact` are the
 * names without spaces or punctuation (`search_handle`, `search_display`), for names typed run
 * together or with a typo near their start.
 */
export interface SearchNames {
  handle: SQL;
  forms: SQL[];
  compact: AnyPgColumn[];
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

/** The row's text holds the query anywhere (a trigram index serves it for 3+ characters). */
export const contains = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchText} LIKE '%' || ${likeLiteral(terms)} || '%' ESCAPE '\\'`;

/**
 * The row's text starts with the query: `starts_with` needs no escaping, and the planner turns it
 * into a range of the B-tree `text_pattern_ops` index; a trigram index cannot serve it (for
 * `LIKE 'st%'` the planner chose the trigram index, whose two trigrams are in thousands of
 * titles that do not start with the query).
 */
const startsWith = (c: SearchColumns, terms: SearchTerms) =>
  sql`starts_with(${c.searchText}, ${normalized(terms)})`;

const equals = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchText} = ${normalized(terms)}`;

const fullText = (c: SearchColumns, terms: SearchTerms) =>
  sql`${c.searchVector} @@ ${tsquery(terms)}`;

/*
 * A row matches when its full text matches, or it contains the query, or (words of 4+ letters)
 * it holds a near spelling of every such word of the query. Searching is split by rank so that
 * the common case reads few rows:
 * - the primary match: exact (after normalisation), full text, or prefix — every row it finds
 *   ranks 1 or more (primaryRankOf), and each part has an index (B-tree, GIN, B-tree pattern ops);
 * - the rest, ranked below 1: a substring inside the title (the trigram index) and near
 *   spellings (`nearMatch`) — looked for only when fewer than `limit` primary rows were found;
 *   the result is then exactly that of one query over every condition. A common prefix ("lov")
 *   is inside many more titles than it starts.
 */
export function primaryMatch(c: SearchColumns, terms: SearchTerms, names?: SearchNames): SQL {
  return or(
    fullText(c, terms),
    equals(c, terms),
    startsWith(c, terms),
    names ? handleStartsWith(names, terms) : undefined,
  ) as SQL;
}

const handleStartsWith = (names: SearchNames, terms: SearchTerms) =>
  sql`starts_with(${names.handle}, ${normalized(terms)})`;

/** The query as a name run together: its search form without spaces or punctuation. */
const compactQuery = (terms: SearchTerms) =>
  sql`regexp_replace(${normalized(terms)}, '[[:space:][:punct:]]+', '', 'g')`;

/** Edits forgiven in a name typed run together: one up to 5 letters, two from 6. */
const nameEditsAllowed = (terms: SearchTerms) =>
  sql`(CASE WHEN char_length(${compactQuery(terms)}) <= 5 THEN 1 ELSE 2 END)`;

/**
 * The fewest edits between the query run together and the start of either name
 * (`prefix_edits`, migration 0017), as a lateral's column `name_edits.edits`: "luna harbor",
 * "lunaharbour" and "lunharbor" all start "lunaharbor911" within their allowance.
 */
export function nameEdits(names: SearchNames, terms: SearchTerms): SQL {
  const edits = names.compact.map(
    (name) => sql`public.prefix_edits(${compactQuery(terms)}, ${name}, ${nameEditsAllowed(terms)})`,
  );
  return sql`CROSS JOIN LATERAL (SELECT least(${sql.join(edits, sql`, `)}) AS edits) AS name_edits`;
}

/**
 * A name typed run together or with a typo near its start (4+ letters run together): the
 * trigram indexes find the names similar enough (pg_trgm's `%`, similarity ≥ 0.3: "lunharbor"
 * is 0.41 to "lunaharbor911"), then `nameEdits` keeps those within the allowed edits of a
 * name's start.
 */
export function nameMatch(names: SearchNames, terms: SearchTerms): SQL {
  const similar = names.compact.map(
    (name) => sql`${name} OPERATOR(public.%) ${compactQuery(terms)}`,
  );
  return sql`char_length(${compactQuery(terms)}) >= 4
    AND (${sql.join(similar, sql` OR `)})
    AND name_edits.edits <= ${nameEditsAllowed(terms)}`;
}

/** The rank of a name match: 0.9 for a name's exact start, less for each edit. Below 0.9. */
export function nameRankOf(terms: SearchTerms): SQL<number> {
  return sql<number>`(0.9 * (1 - name_edits.edits::double precision
    / (char_length(${compactQuery(terms)}) + 1)))::double precision`;
}

/**
 * The query's words that get typo tolerance (4+ characters), split as the search_words table
 * splits titles (migration 0007: `search_words_of`).
 */
const fuzzyWords = (terms: SearchTerms) =>
  sql`ARRAY(SELECT w FROM public.search_words_of(${normalized(terms)}) AS w WHERE char_length(w) >= 4)`;

/** How many near words (distinct stems) of each query word are looked up, the closest first. */
export const NEAR_WORDS = 8;

/**
 * The body of the `near` CTE (statements that use `nearMatch` and `nearRankOf` define it): for
 * every 4+ letter word of the query, the NEAR_WORDS closest words `w` of the search_words table
 * within its allowed edits (fuzzystrmatch's levenshtein: one edit, a letter missing, extra or
 * wrong, for words of 4–5 letters; two for longer ones, so two letters swapped count), fewest
 * edits first, then trigram similarity, one per English stem:
 * `(query_word, query, similarity, length)`. The candidates are the words trigram-similar to it
 * (pg_trgm's `%`: similarity ≥ pg_trgm.similarity_threshold, 0.3 by default), from the trigram
 * index of a small table: no trigram scan of the titles, no similarity computed per title. A
 * typo that leaves a short word below that similarity (a wrong letter in a 4-letter word) is not
 * found. The distance of each candidate is computed once (a lateral), for the filter and the order.
 */
export function nearWords(terms: SearchTerms): SQL {
  return sql`SELECT query_word, query, similarity, length FROM (
      SELECT query_word, w.query, max(public.similarity(query_word, w.word)) AS similarity,
        max(char_length(w.word)) AS length,
        row_number() OVER (PARTITION BY query_word
          ORDER BY min(distance.edits), max(public.similarity(query_word, w.word)) DESC,
            min(char_length(w.word)), w.query::text)
          AS closeness
      FROM unnest(${fuzzyWords(terms)}) AS query_word
      CROSS JOIN LATERAL (SELECT CASE WHEN char_length(query_word) <= 5 THEN 1 ELSE 2 END
        AS allowed) AS edits_of
      JOIN public.search_words AS w ON w.word OPERATOR(public.%) query_word
      CROSS JOIN LATERAL (SELECT public.levenshtein_less_equal(query_word, w.word, edits_of.allowed)
        AS edits) AS distance
      WHERE w.query IS NOT NULL AND distance.edits <= edits_of.allowed
      GROUP BY query_word, w.query
    ) AS near_words WHERE closeness <= ${NEAR_WORDS}`;
}

/**
 * A near spelling: the title holds, for every 4+ letter word of the query, one of its near
 * words — one full-text query (`(a | b) & (c | d)`) over the titles' index.
 */
export function nearMatch(c: SearchColumns, terms: SearchTerms): SQL {
  return sql`(SELECT count(DISTINCT query_word) FROM near) = cardinality(${fuzzyWords(terms)})
    AND ${c.searchVector} @@ (SELECT public.tsquery_and_agg(alternatives) FROM
      (SELECT public.tsquery_or_agg(query) AS alternatives FROM near GROUP BY query_word) AS words)`;
}

/**
 * The rank of a near spelling: 0.9 × the mean over the query's words of the best (trigram)
 * similarity of the near words the title holds, × (0.75 + 0.25 × the share of the title they
 * cover): closer spellings first, then titles that are mostly the words looked for. Always below
 * 0.9.
 */
export function nearRankOf(c: SearchColumns): SQL<number> {
  return sql<number>`(SELECT (0.9 * avg(best)
      * (0.75 + 0.25 * least(1, sum(length)::double precision / char_length(${c.searchText}))))::double precision
    FROM (SELECT max(similarity) AS best, max(length) AS length FROM near
      WHERE ${c.searchVector} @@ near.query GROUP BY query_word) AS held)`;
}

/** The lowest rank of an exact, full-text or prefix match; every other match ranks below it. */
export const WEAK_RANK = 1;

/**
 * Relevance of a primary match as one number, tiers that never overlap: 3 exact match (after
 * unaccent and lower-casing); 2 + 0.9 × ts_rank for full-text matches (normalization 1|32:
 * shorter titles first, scaled into [0, 1)); 1 + 0.9 × the share of the title the query covers
 * for prefix matches (closer to the whole title first: a length per row, where a trigram
 * similarity cost several times more on the thousands of titles a short prefix starts).
 * Other rows rank below WEAK_RANK: `containsRankOf`, `nearRankOf`.
 */
export function primaryRankOf(
  c: SearchColumns,
  terms: SearchTerms,
  names?: SearchNames,
): SQL<number> {
  // A table of names: either name whole is exact; a prefix of the handle ranks by its length.
  const exact = names
    ? sql.join(
        [equals(c, terms), ...names.forms.map((form) => sql`${form} = ${normalized(terms)}`)],
        sql` OR `,
      )
    : equals(c, terms);
  const handlePrefix = names
    ? sql`WHEN ${handleStartsWith(names, terms)}
      THEN 1 + 0.9 * char_length(${normalized(terms)})::double precision / char_length(${names.handle})`
    : sql``;
  return sql<number>`(CASE
    WHEN ${exact} THEN 3
    WHEN ${fullText(c, terms)}
      THEN 2 + 0.9 * ts_rank(${c.searchVector}, ${tsquery(terms)}, 33)
    WHEN ${startsWith(c, terms)}
      THEN 1 + 0.9 * char_length(${normalized(terms)})::double precision / char_length(${c.searchText})
    ${handlePrefix}
  END)::double precision`;
}

/** The rank of a row that holds the query inside a word: 0.9 × word_similarity. */
export function containsRankOf(c: SearchColumns, terms: SearchTerms): SQL<number> {
  return sql<number>`(0.9 * word_similarity(${normalized(terms)}, ${c.searchText}))::double precision`;
}
