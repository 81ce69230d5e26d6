import type { Queryable } from "@edge-music/db";
import { playlists, playlistTracks, tracks } from "@edge-music/db";
import { and, asc, desc, eq, inArray, lte, or, type SQLWrapper, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { NotFoundError } from "../../errors/app-error.ts";
import { readImage } from "../../images/images.ts";
import { discardImages, type NewImages, replaceImages } from "../../images/replace.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { assertOwner } from "../../security/guard.ts";
import type { Principal } from "../../security/principal.ts";
import { offsetOf, type Page } from "../../validation/common.ts";
import { listedTrack } from "../sharing/queries.ts";
import {
  deletePlaylistRow,
  insertPlaylist,
  likeCount,
  ownerRow,
  playlistColumns,
  playlistFields,
  playlistRow,
  playlistTrackRows,
  toPlaylist,
  trackCount,
  updatePlaylistRow,
  visibleTo,
} from "./queries.ts";
import type { PlaylistPatch } from "./schema.ts";
import {
  BRIEF_TRACKS,
  type OwnPlaylistOut,
  type PlaylistOut,
  type PlaylistSummaryOut,
  type PlaylistWithViewerOut,
} from "./schema.ts";

/** What the playlist services take; each function picks what it uses. */
export type PlaylistDeps = Pick<RequestDeps, "db" | "storage" | "log" | "principal" | "viewer">;

/** POST /playlists: a new, empty playlist of the caller. */
export async function createPlaylist(
  ctx: PlaylistDeps,
  input: { title: string; description: string } & Pick<PlaylistPatch, "isPublic" | "visibility">,
): Promise<PlaylistOut> {
  const [row] = await insertPlaylist(ctx.db, ctx.principal.id, input);
  if (!row) throw new Error("insert returned no playlist");
  return { ...playlistFields(row), tracks: [], _count: { tracks: 0, likes: 0 } };
}

/**
 * PUT /playlists/:id. One batch (one round trip) locks the row, updates it only when the caller
 * owns it, and reads it back; the answer is decided from what the batch read. A new cover is
 * checked (owner first: a stranger's upload is never read, let alone stored) and stored before
 * that batch, which points the row at it (`replaceImages`): two round trips.
 */
export async function updatePlaylist(
  ctx: PlaylistDeps,
  id: string,
  patch: PlaylistPatch,
  cover?: unknown,
): Promise<PlaylistOut> {
  const principal = ctx.principal;
  const fields = Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  ) as PlaylistPatch;
  let images: NewImages<"cover"> = {};
  if (cover !== undefined) {
    await assertOwnPlaylist(ctx.db, principal, id);
    const image = await readImage(cover, "cover");
    if (image) images = { cover: { folder: "covers", image } };
  }
  const { db } = ctx;
  return await replaceImages(ctx, images, async (stored) => {
    const [owner, , row, trackRows] = await db.batch([
      ownerRow(db, id, { lock: true }),
      updatePlaylistRow(db, id, principal.id, fields, stored),
      playlistRow(db, id),
      playlistTrackRows(db, id),
    ]);
    const own = assertOwnRow(owner, principal);
    const playlist = toPlaylist(row[0], trackRows);
    if (!playlist) throw new NotFoundError("No such playlist.");
    return { previous: { cover: own.cover }, result: playlist };
  });
}

/** DELETE /playlists/:id: the playlist, its entries and likes (cascade), then its cover object. */
export async function deletePlaylist(ctx: PlaylistDeps, id: string): Promise<void> {
  const { db, principal } = ctx;
  // One round trip: the row is locked and read (for the answer), then deleted if it is the caller's.
  const [owner, deleted] = await db.batch([
    ownerRow(db, id, { lock: true }),
    deletePlaylistRow(db, id, principal.id),
  ]);
  assertOwnRow(owner, principal);
  const [row] = deleted;
  if (!row) throw new NotFoundError("No such playlist.");
  await discardImages(ctx, [row.cover], { playlistId: id });
}

// Newest update first; the id breaks ties so that pages never overlap.
const newestFirst = [desc(playlists.updatedAt), desc(playlists.id)];

/** GET /playlists: public playlists, newest update first. */
export async function listPublicPlaylists(
  ctx: PlaylistDeps,
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

/**
 * GET /playlists/me: the caller's playlists, newest update first, each with a brief track list.
 * One batch: the page, and the brief lists of the same page (its ids as a subquery).
 */
export async function listOwnPlaylists(
  ctx: Pick<PlaylistDeps, "db">,
  userId: string,
  page: Page,
): Promise<OwnPlaylistOut[]> {
  const { db } = ctx;
  const pageOf = <T extends PgSelect>(query: T) =>
    query
      .where(eq(playlists.userId, userId))
      .orderBy(...newestFirst)
      .limit(page.limit)
      .offset(offsetOf(page));
  const [rows, briefRows] = await db.batch([
    pageOf(db.select({ playlist: playlistColumns, tracks: trackCount }).from(playlists).$dynamic()),
    briefTrackRows(ctx, pageOf(db.select({ id: playlists.id }).from(playlists).$dynamic())),
  ]);
  const brief = new Map<string, Array<{ id: string; title: string; cover: string | null }>>();
  for (const { playlistId, id, title, cover } of briefRows) {
    const list = brief.get(playlistId) ?? [];
    list.push({ id, title, cover });
    brief.set(playlistId, list);
  }
  return rows.map(({ playlist, tracks: count }) => ({
    id: playlist.id,
    title: playlist.title,
    cover: playlist.cover,
    isPublic: playlist.isPublic,
    visibility: playlist.visibility,
    updatedAt: playlist.updatedAt.toISOString(),
    tracks: brief.get(playlist.id) ?? [],
    _count: { tracks: count },
  }));
}

/** The first BRIEF_TRACKS READY tracks of each playlist the subquery names, in order. */
function briefTrackRows(ctx: Pick<PlaylistDeps, "db">, playlistIds: SQLWrapper) {
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
    .where(and(inArray(playlistTracks.playlistId, playlistIds), listedTrack))
    .as("ranked");
  return ctx.db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, BRIEF_TRACKS))
    .orderBy(asc(ranked.playlistId), asc(ranked.rank));
}

/**
 * GET /playlists/:id. A private playlist is shown to its owner only, an unlisted one also to
 * whoever gives its share key; to anyone else it is 404, exactly like a missing one, so that its
 * existence is not revealed. A signed-in listener
 * also gets whether they like it (`viewer`), a column of the playlist's own row.
 */
export async function getPlaylist(
  ctx: Pick<PlaylistDeps, "db" | "viewer">,
  id: string,
  key?: string,
): Promise<PlaylistWithViewerOut> {
  const listener = viewerUserId(ctx);
  // An unlisted playlist to whoever gives its key, compared here (ADR 0025).
  const keyed =
    key === undefined
      ? undefined
      : and(eq(playlists.visibility, "unlisted"), eq(playlists.shareKey, key));
  // One round trip: the row (if the caller may see it) and the track list together.
  const [row, trackRows] = await ctx.db.batch([
    playlistRow(ctx.db, id, or(visibleTo(listener), keyed), listener),
    playlistTrackRows(ctx.db, id),
  ]);
  const playlist = toPlaylist(row[0], trackRows);
  if (!playlist) throw new NotFoundError("No such playlist.");
  if (!listener) return playlist;
  return { ...playlist, viewer: { liked: row[0]?.liked === true } };
}

/** The user id a visibility rule may match: artists own no playlists. */
const viewerUserId = (ctx: Pick<PlaylistDeps, "viewer">) =>
  ctx.viewer?.kind === "user" ? ctx.viewer.id : null;

/**
 * (owner) writes, from `ownerRow`'s rows: unknown → 404; someone else's → 403, private or not
 * (the spec answers 403 to a user other than the owner; only reads hide private playlists behind
 * a 404).
 */
export function assertOwnRow<R extends { userId: string }>(rows: R[], principal: Principal): R {
  const [row] = rows;
  if (!row) throw new NotFoundError("No such playlist.");
  assertOwner(principal, row.userId, "playlist");
  return row;
}

export async function assertOwnPlaylist(
  db: Queryable,
  principal: Principal,
  id: string,
  options: { lock?: boolean } = {},
): Promise<{ id: string; cover: string | null }> {
  const row = assertOwnRow(await ownerRow(db, id, options), principal);
  return { id: row.id, cover: row.cover };
}
