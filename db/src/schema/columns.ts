import { sql } from "drizzle-orm";
import { type ExtraConfigColumn, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

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

/**
 * The sign-in columns of both account kinds (users and artists): the auth code is written once
 * against them (see the Worker's security/account-kinds.ts).
 */
export const accountColumns = () => ({
  id: primaryId(),
  // 3–30 characters, checked by the app.
  username: text("username").notNull(),
  // Lower-cased by the app, so the plain unique index is case-insensitive.
  email: text("email").notNull(),
  // Null for accounts that only ever signed in through OAuth.
  passwordHash: text("password_hash"),
  // Set once the address is proven: a completed password reset (the mail arrived) or a sign-in
  // through a provider that vouches for it. Until then, a provider's verified sign-in with the
  // same address takes the account over (see the OAuth service): an unproven registration must
  // not be a trap for the address's real owner.
  emailVerifiedAt: timestamptz("email_verified_at"),
  // The name shown to people (spaces and any script, 1–50 characters, checked by the app); the
  // username stays the handle in URLs. Null: the username is shown.
  displayName: text("display_name"),
});

/** Usernames unique without regard to case, emails unique (stored lower-case). */
export const accountIndexes = (
  table: string,
  t: { username: ExtraConfigColumn; email: ExtraConfigColumn },
) => [
  uniqueIndex(`${table}_username_idx`).on(sql`lower(${t.username})`),
  uniqueIndex(`${table}_email_idx`).on(t.email),
];
