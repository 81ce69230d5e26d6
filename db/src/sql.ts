import { getTableName, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * A column with its table's name (`"artists"."id"`). drizzle leaves columns unqualified in the
 * select list of a single-table query, where a correlated subquery would resolve `"id"` to its
 * own table's column.
 */
export const qualified = (column: AnyPgColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** Ids bound as one `uuid[]` parameter (for `= any(…)` and `unnest(…)`). */
export const uuids = (ids: string[]): SQL => sql`${sql.param(ids)}::uuid[]`;

/** That every id of `ids` is among the rows `found` selects (a subquery of one id column). */
export const allFound = (ids: string[], found: SQL): SQL =>
  sql`(select count(distinct id) from (${found}) as found(id) where id = any(${uuids(ids)})) = ${new Set(ids).size}`;
