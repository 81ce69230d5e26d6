import { type AnyPgColumn, type PgTable, uuid } from "drizzle-orm/pg-core";

/** The two independent account kinds; each gets its own copy of every auth table. */
export type PrincipalKind = "user" | "artist";

/** A table whose rows can sign in: all the auth tables need is its uuid `id`. */
export type PrincipalTable = PgTable & { id: AnyPgColumn };

/**
 * `<kind>_id`, keyed `principalId` in TS on every auth table, so auth code is written once
 * against either kind's tables.
 */
export const principalId = <K extends PrincipalKind>(kind: K, principal: PrincipalTable) =>
  uuid(`${kind}_id` as const)
    .notNull()
    .references(() => principal.id, { onDelete: "cascade" });
