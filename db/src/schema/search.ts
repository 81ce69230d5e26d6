import { sql } from "drizzle-orm";
import { customType, type ExtraConfigColumn, index, pgTable, text } from "drizzle-orm/pg-core";

/*
 * Every searchable table stores its search forms of the searched column as generated columns:
 * `search_text` (lower-cased, diacritics removed) and `search_vector` (English full text of the
 * unaccented text). Stored, because computing them per row at query time dominated search: the
 * unaccent wrapper is a SQL function Postgres cannot inline, so every recheck and every ranking
 * called it again (see ADR 0006).
 * `immutable_unaccent` comes from migration 0000: `unaccent()` itself is only STABLE, which
 * Postgres refuses in a generated column or an index expression.
 */

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The two generated columns of a table whose `source` column (SQL name) is searched. */
export function searchColumns(source: string) {
  const column = sql.identifier(source);
  return {
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower(public.immutable_unaccent(${column}))`),
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english', public.immutable_unaccent(${column}))`),
  };
}

/**
 * Full text (GIN on the vector); substring and near spellings (trigram GIN on the text); prefixes
 * of any length (B-tree with pattern ops: a trigram index cannot serve a one- or two-character
 * query).
 */
export function searchIndexes(
  table: string,
  columns: { searchText: ExtraConfigColumn; searchVector: ExtraConfigColumn },
) {
  return [
    index(`${table}_search_vector_idx`).using("gin", columns.searchVector),
    index(`${table}_search_text_trgm_idx`).using("gin", columns.searchText.op("gin_trgm_ops")),
    index(`${table}_search_text_prefix_idx`).on(columns.searchText.op("text_pattern_ops")),
  ];
}

const tsquery = customType<{ data: string }>({ dataType: () => "tsquery" });

/**
 * Every distinct word (3+ characters, as in `search_text`: lower-cased, unaccented) of the
 * searched columns of tracks, artists, albums and playlists, with the full-text query of its
 * English stem (null for a stop word). Typo-tolerant search finds the words near a misspelt one
 * here, in a table of thousands of rows, then the titles holding them through the full-text
 * index: pg_trgm's documented way, instead of a trigram scan and a similarity per title.
 * Filled by triggers (migration 0007); a word no title uses any more stays, matching nothing.
 */
export const searchWords = pgTable(
  "search_words",
  {
    word: text("word").primaryKey(),
    query: tsquery("query").generatedAlwaysAs(
      sql`plainto_tsquery('simple', (tsvector_to_array(to_tsvector('english', "word")))[1])`,
    ),
  },
  (table) => [index("search_words_word_trgm_idx").using("gin", table.word.op("gin_trgm_ops"))],
);
