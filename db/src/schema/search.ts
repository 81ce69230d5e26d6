import { type SQL, sql } from "drizzle-orm";
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

/**
 * The two generated columns of a table whose `source` column (SQL name) is searched, or a text
 * expression of its columns (artists: the display name and the username).
 */
export function searchColumns(source: string | SQL) {
  const column = typeof source === "string" ? sql.identifier(source) : source;
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

/**
 * A name run together, for names typed with their spaces in other places or with a typo near the
 * start ("luna harbor", "lunharbor" → lunaharbor911): lower-cased, unaccented, spaces and
 * punctuation removed ("" for none). Searched by trigram similarity (its GIN index), then by the
 * edits to its start (migration 0017). One column per name: a trigram similarity to both names
 * at once would fall with the length of the other.
 */
export function compactName(column: string, name: string) {
  return text(name)
    .notNull()
    .generatedAlwaysAs(
      sql`regexp_replace(lower(public.immutable_unaccent(coalesce(${sql.identifier(column)}, ''))), '[[:space:][:punct:]]+', '', 'g')`,
    );
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
