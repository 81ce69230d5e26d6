import { albums, playlists, tracks } from "@edge-music/db";
import { and, eq, or, type SQL, sql } from "drizzle-orm";

/**
 * The one rule of what anyone may find (ADR 0025): every list, search, feed, playlist, preview,
 * roll-up and door of the API reads these, never its own copy. Unlisted and private items are
 * reached only by id, with their key or by the owner.
 *
 * drizzle qualifies a column inside a condition (`"tracks"."visibility"`), so these also serve
 * inside a raw `sql` subquery or join on `tracks` (not on an alias of it).
 */

/** A track anyone may find in a list, a search, a feed or a playlist: READY and public. */
export const listedTrack = and(
  eq(tracks.processingStatus, "READY"),
  eq(tracks.visibility, "public"),
) as SQL;

/** The ids of the listed tracks, as a subquery (for `allFound`, `in (…)`). */
export const listedTrackIds = sql`select ${tracks.id} from ${tracks} where ${listedTrack}`;

/**
 * A track this listener may hear: a listed one, or with `key` an unlisted READY one whose share
 * key it is (compared in SQL: a wrong key reads as a missing row).
 */
export const hearableTrack = (key?: string): SQL =>
  key === undefined
    ? listedTrack
    : (and(
        eq(tracks.processingStatus, "READY"),
        or(
          eq(tracks.visibility, "public"),
          and(eq(tracks.visibility, "unlisted"), eq(tracks.shareKey, key)),
        ),
      ) as SQL);

/** An album anyone may find listed. */
export const listedAlbum = eq(albums.visibility, "public");

/** A playlist anyone may find listed (the same as the spec's `isPublic`). */
export const listedPlaylist = eq(playlists.visibility, "public");
