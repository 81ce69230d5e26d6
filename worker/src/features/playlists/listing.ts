import { playlists, playlistTracks, tracks } from "@edge-music/db";
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { NotFoundError } from "../../errors/app-error.ts";
import { offsetOf, type Page } from "../../validation/common.ts";
import { type PlaylistContext, viewerUserId } from "./context.ts";
import {
  isReady,
  likeCount,
  loadPlaylist,
  playlistColumns,
  playlistFields,
  trackCount,
  visibleTo,
} from "./queries.ts";
import {
  BRIEF_TRACKS,
  type OwnPlaylistOut,
  type PlaylistOut,
  type PlaylistSummaryOut,
} from "./schema.ts";

// Newest update first; the id breaks ties so that pages never overlap.
const newestFirst = [desc(playlists.updatedAt), desc(playlists.id)];

/** GET /playlists: public playlists, newest update first. */
export async function listPublicPlaylists(
  ctx: PlaylistContext,
  page: Page,
): Promise<PlaylistSummaryOut[]> {
  const rows = await ctx.db
    .select({ playlist: playlistColumns, tracks: trackCount, likes: likeCount })
    .from(playlists)
    .where(eq(playlists.isPublic, true))
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map((row) => ({
    ...playlistFields(row.playlist),
    _count: { tracks: row.tracks, likes: row.likes },
  }));
}

/** GET /playlists/me: the caller's playlists, newest update first, each with a brief track list. */
export async function listOwnPlaylists(
  ctx: PlaylistContext,
  userId: string,
  page: Page,
): Promise<OwnPlaylistOut[]> {
  const rows = await ctx.db
    .select({ playlist: playlistColumns, tracks: trackCount })
    .from(playlists)
    .where(eq(playlists.userId, userId))
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(offsetOf(page));
  const brief = await briefTrackLists(
    ctx,
    rows.map((row) => row.playlist.id),
  );
  return rows.map(({ playlist, tracks: count }) => ({
    id: playlist.id,
    title: playlist.title,
    cover: playlist.cover,
    isPublic: playlist.isPublic,
    updatedAt: playlist.updatedAt.toISOString(),
    tracks: brief.get(playlist.id) ?? [],
    _count: { tracks: count },
  }));
}

/** The first BRIEF_TRACKS READY tracks of each playlist, in one query for the whole page. */
async function briefTrackLists(ctx: PlaylistContext, playlistIds: string[]) {
  const lists = new Map<string, Array<{ id: string; title: string; cover: string | null }>>();
  if (playlistIds.length === 0) return lists;
  const ranked = ctx.db
    .select({
      playlistId: playlistTracks.playlistId,
      id: tracks.id,
      title: tracks.title,
      cover: tracks.cover,
      rank: sql<number>`row_number() over (partition by ${playlistTracks.playlistId} order by ${playlistTracks.position}, ${tracks.id})`.as(
        "rank",
      ),
    })
    .from(playlistTracks)
    .innerJoin(tracks, eq(tracks.id, playlistTracks.trackId))
    .where(and(inArray(playlistTracks.playlistId, playlistIds), isReady))
    .as("ranked");
  const rows = await ctx.db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, BRIEF_TRACKS))
    .orderBy(asc(ranked.playlistId), asc(ranked.rank));
  for (const { playlistId, id, title, cover } of rows) {
    const list = lists.get(playlistId) ?? [];
    list.push({ id, title, cover });
    lists.set(playlistId, list);
  }
  return lists;
}

/**
 * GET /playlists/:id. A private playlist is shown to its owner only; to anyone else it is
 * 404, exactly like a missing one, so that its existence is not revealed.
 */
export async function getPlaylist(ctx: PlaylistContext, id: string): Promise<PlaylistOut> {
  const playlist = await loadPlaylist(ctx.db, id, visibleTo(viewerUserId(ctx)));
  if (!playlist) throw new NotFoundError("No such playlist.");
  return playlist;
}
