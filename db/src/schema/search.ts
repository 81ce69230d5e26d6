import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, index } from "drizzle-orm/pg-core";

/*
 * Searchable text columns get two GIN indexes: English full text and case-insensitive substring
 * (trigram), both blind to diacritics. A query only uses them when it repeats the exact
 * expression, so queries should build it with these same helpers.
 * `immutable_unaccent` comes from migration 0000: `unaccent()` itself is only STABLE, which
 * Postgres refuses in an index expression.
 */

/** `to_tsvector('english', unaccented column)`: match with `@@ websearch_to_tsquery(...)`. */
export const searchVector = (column: AnyPgColumn): SQL =>
  sql`to_tsvector('english', public.immutable_unaccent(${column}))`;

/** Lower-cased, unaccented column: match with `LIKE '%' || lower(immutable_unaccent(q)) || '%'`. */
export const searchText = (column: AnyPgColumn): SQL =>
  sql`lower(public.immutable_unaccent(${column}))`;

export function searchIndexes(table: string, column: AnyPgColumn) {
  return [
    index(`${table}_${column.name}_fts_idx`).using("gin", searchVector(column)),
    index(`${table}_${column.name}_trgm_idx`).using("gin", sql`${searchText(column)} gin_trgm_ops`),
  ];
}
