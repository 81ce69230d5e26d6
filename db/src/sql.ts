import { getTableName, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * A column with its table's name (`"artists"."id"`). drizzle leaves columns unqualified in the
 * select list of a single-table query, where a correlated subquery would resolve `"id"` to its
 * own table's column.
 */
export const qualified = (column: AnyPgColumn): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
