import { albums, playlists, tracks } from "@edge-music/db";
import { and, eq, type SQL } from "drizzle-orm";

/**
 * A track anyone may find in a list, a search, a feed or a playlist: READY and public
 * (ADR 0025). Unlisted and private tracks are reached only by id, with their key or by the owner.
 */
export const listedTrack = and(
  eq(tracks.processingStatus, "READY"),
  eq(tracks.visibility, "public"),
) as SQL;

/** An album anyone may find listed. */
export const listedAlbum = eq(albums.visibility, "public");

/** A playlist anyone may find listed (the same as the spec's `isPublic`). */
export const listedPlaylist = eq(playlists.visibility, "public");
