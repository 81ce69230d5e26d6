import { type ExtraConfigColumn, timestamp, uuid } from "drizzle-orm/pg-core";

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const primaryId = () => uuid("id").primaryKey().defaultRandom();

export const createdAt = () => timestamptz("created_at").notNull().defaultNow();

export const updatedAt = () =>
  timestamptz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * Index key for "newest first". drizzle's bare `.desc()` emits DESC NULLS LAST, which a plain
 * `ORDER BY col DESC` (NULLS FIRST implied) cannot read in order, even on a NOT NULL column.
 */
export const newestFirst = (column: ExtraConfigColumn) => column.desc().nullsFirst();
