import { sql } from "drizzle-orm";
import { pgEnum, text } from "drizzle-orm/pg-core";

/**
 * Who may reach a track, an album or a playlist (issue 31): `public` is listed everywhere;
 * `unlisted` only by people holding its link (the share key in the URL); `private` by the owner
 * alone. Anything not public never appears in a list, search, feed, the Subsonic door, a link
 * preview or a shared edge-cache answer.
 */
export const visibility = pgEnum("visibility", ["public", "unlisted", "private"]);

export type Visibility = (typeof visibility.enumValues)[number];

/**
 * The secret of an item's unlisted link (`?key=…`): 122 random bits as 32 hex characters, made
 * by Postgres on insert and on rotation (`SET share_key = DEFAULT`), which ends the old link.
 */
export const shareKey = () =>
  text("share_key").notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`);
