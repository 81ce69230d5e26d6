import {
  albums,
  artists,
  FOREIGN_KEY_VIOLATION,
  pgErrorCode,
  type Queryable,
  tracks,
  type Visibility,
} from "@edge-music/db";
import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { NotFoundError, ValidationError } from "../../errors/app-error.ts";
import type { Image } from "../../images/images.ts";
import { discardImages, replaceImages } from "../../images/replace.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { assertOwner } from "../../security/guard.ts";
import { offsetOf, type Page } from "../../validation/common.ts";
import { listedAlbum } from "../sharing/queries.ts";
import { readyTracksQuery, toTrackDto } from "../tracks/catalogue/queries.ts";
import { sharedTrack } from "../tracks/catalogue/service.ts";
import { SUMMARY, toSummary } from "./queries.ts";
import type { AlbumSummaryView, AlbumView } from "./schema.ts";

const albumNotFound = (id: string) => new NotFoundError(`No album with id ${id}.`);

/**
 * Newest first (ties by id); an unknown artistId matches nothing. Public albums, plus the
 * caller's own of any visibility when `ownerId` is the signed-in artist (ADR 0025).
 */
export async function listAlbums(
  ctx: Pick<RequestDeps, "db">,
  filter: { artistId?: string | undefined },
  page: Page,
): Promise<AlbumSummaryView[]> {
  return (await listAlbumsQuery(ctx.db, filter, page)).map(toSummary);
}

/** The query of `listAlbums`, to send in a batch; its rows go through `toSummary`. */
export const listAlbumsQuery = (
  db: Queryable,
  filter: { artistId?: string | undefined },
  page: Page,
  ownerId: string | null = null,
) =>
  db
    .select(SUMMARY)
    .from(albums)
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .where(
      and(
        filter.artistId ? eq(albums.artistId, filter.artistId) : undefined,
        ownerId ? or(listedAlbum, eq(albums.artistId, ownerId)) : listedAlbum,
      ),
    )
    .orderBy(desc(albums.createdAt), desc(albums.id))
    .limit(page.limit)
    .offset(offsetOf(page));

/** The signed-in artist, who may be an album's owner. */
const viewerArtist = (ctx: Pick<RequestDeps, "viewer">) =>
  ctx.viewer?.kind === "artist" ? ctx.viewer.id : null;

/**
 * An album with the READY tracks its reader may see (ADR 0025): a public album to everyone, an
 * unlisted one to whoever gives its share key, any to its owner; else 404 as a missing album.
 * Everyone sees its public tracks, the key holder also its unlisted ones (with their signed
 * URLs), the owner all. The key is compared in SQL. One round trip: the album, its tracks and,
 * with a key, the share keys of the unlisted tracks it opens, in one batch.
 */
export async function getAlbum(
  ctx: Pick<RequestDeps, "db" | "viewer" | "env" | "now">,
  id: string,
  key?: string,
): Promise<AlbumView> {
  const owner = viewerArtist(ctx);
  const keyed =
    key === undefined
      ? undefined
      : and(eq(albums.visibility, "unlisted"), eq(albums.shareKey, key));
  const readable = or(listedAlbum, owner ? eq(albums.artistId, owner) : undefined, keyed);
  const keyedTrack =
    key === undefined
      ? undefined
      : and(
          eq(tracks.visibility, "unlisted"),
          sql`exists (select from ${albums} where ${albums.id} = ${tracks.albumId} and ${albums.visibility} = 'unlisted' and ${albums.shareKey} = ${key})`,
        );
  const shown = and(
    eq(tracks.processingStatus, "READY"),
    or(eq(tracks.visibility, "public"), owner ? eq(tracks.artistId, owner) : undefined, keyedTrack),
  );
  if (keyedTrack === undefined) {
    const [rows, trackRows] = await ctx.db.batch(albumReads(ctx.db, id, { readable, shown }));
    return toAlbum(id, rows, trackRows);
  }
  // The album's unlisted tracks that its key opens come with signed URLs of their files (ADR
  // 0026), signed with each track's own key: read in the same batch.
  const [rows, trackRows, keys] = await ctx.db.batch([
    ...albumReads(ctx.db, id, { readable, shown }),
    ctx.db
      .select({ id: tracks.id, shareKey: tracks.shareKey })
      .from(tracks)
      .where(and(eq(tracks.albumId, id), eq(tracks.processingStatus, "READY"), keyedTrack)),
  ]);
  const album = toAlbum(id, rows, trackRows);
  const shareKeys = new Map(keys.map((k) => [k.id, k.shareKey]));
  const withStreams = await Promise.all(
    album.tracks.map((track) => {
      const shareKey = shareKeys.get(track.id);
      return shareKey === undefined ? track : sharedTrack(ctx, track, shareKey);
    }),
  );
  return { ...album, tracks: withStreams };
}

/**
 * The album's row and its tracks, as queries (the last items of a batch). By default as its
 * owner sees it (every READY track): the writes answer the owner.
 */
const albumReads = (
  db: Queryable,
  id: string,
  who: { readable?: SQL | undefined; shown?: SQL | undefined } = {},
) =>
  [
    db
      .select(SUMMARY)
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(eq(albums.id, id), who.readable)),
    readyTracksQuery(
      db,
      { albumId: id, shown: who.shown ?? eq(tracks.processingStatus, "READY") },
      "album",
    ),
  ] as const;

function toAlbum(
  id: string,
  rows: Awaited<ReturnType<typeof albumReads>[0]>,
  trackRows: Awaited<ReturnType<typeof albumReads>[1]>,
): AlbumView {
  const [row] = rows;
  if (!row) throw albumNotFound(id);
  return { ...toSummary(row), tracks: trackRows.map(toTrackDto) };
}

export interface AlbumInput {
  title: string;
  releasedAt?: string | null | undefined;
  description?: string | undefined;
}

/** One round trip: the row (its id made here, random like the column's default) and its read-back. */
export async function createAlbum(
  ctx: Pick<RequestDeps, "db" | "principal">,
  input: AlbumInput,
): Promise<AlbumView> {
  const id = crypto.randomUUID();
  const { db } = ctx;
  try {
    const [, rows, trackRows] = await db.batch([
      db.insert(albums).values({
        id,
        artistId: ctx.principal.id,
        title: input.title,
        releasedAt: input.releasedAt ?? null,
        description: input.description ?? "",
      }),
      ...albumReads(db, id),
    ]);
    return toAlbum(id, rows, trackRows);
  } catch (error) {
    // The account was deleted between the guard and the insert.
    if (pgErrorCode(error) === FOREIGN_KEY_VIOLATION) {
      throw new NotFoundError("The account no longer exists.");
    }
    throw error;
  }
}

export interface AlbumUpdate extends Partial<AlbumInput> {
  visibility?: Visibility | undefined;
  cover?: Image | undefined;
}

/**
 * One batch (one round trip) locks the row (so the cover it had is the one replaced), updates it
 * only when the caller owns it, and reads it back; the answer is decided from what the batch
 * read. A new cover is stored before that batch, after the owner is checked (a stranger's upload
 * never reaches storage): two round trips.
 */
export async function updateAlbum(
  ctx: Pick<RequestDeps, "db" | "storage" | "log" | "principal">,
  id: string,
  update: AlbumUpdate,
): Promise<AlbumView> {
  const caller = ctx.principal;
  const { db } = ctx;
  const fields = {
    ...(update.title !== undefined ? { title: update.title } : {}),
    ...(update.releasedAt !== undefined ? { releasedAt: update.releasedAt } : {}),
    ...(update.description !== undefined ? { description: update.description } : {}),
    ...(update.visibility !== undefined ? { visibility: update.visibility } : {}),
  };
  const owner = () =>
    db
      .select({ artistId: albums.artistId, cover: albums.cover })
      .from(albums)
      .where(eq(albums.id, id));
  const assertOwnAlbum = ([album]: Awaited<ReturnType<typeof owner>>) => {
    if (!album) throw albumNotFound(id);
    assertOwner(caller, album.artistId, "album");
    return album;
  };
  if (update.cover) assertOwnAlbum(await owner());
  const images = update.cover ? { cover: { folder: "covers" as const, image: update.cover } } : {};
  return await replaceImages(ctx, images, async (stored) => {
    const [locked, , rows, trackRows] = await db.batch([
      owner().for("update"),
      db
        .update(albums)
        // `id` (unchanged) keeps the SET list non-empty whatever the caller sent.
        .set({ ...fields, ...stored, id })
        .where(and(eq(albums.id, id), eq(albums.artistId, caller.id))),
      ...albumReads(db, id),
    ]);
    const album = assertOwnAlbum(locked);
    return { previous: { cover: album.cover }, result: toAlbum(id, rows, trackRows) };
  });
}

/**
 * PUT /albums/:id/tracks/order: the album's tracks get places 1…n in the order given. The list
 * must name every track of the album (in any state) exactly once, else 400 and nothing changes.
 * One batch: the album locked (its owner read), the places written only when the caller owns it
 * and the list is the album's whole track list, a read of what the album holds, and the album
 * read back.
 */
export async function reorderAlbum(
  ctx: Pick<RequestDeps, "db" | "principal">,
  id: string,
  trackIds: string[],
): Promise<AlbumView> {
  const { db } = ctx;
  const caller = ctx.principal;
  const given = sql`${JSON.stringify(trackIds)}::jsonb`;
  const [locked, , held, rows, trackRows] = await db.batch([
    db.select({ artistId: albums.artistId }).from(albums).where(eq(albums.id, id)).for("update"),
    db.execute(sql`
      update ${tracks} set album_position = given.position
      from jsonb_array_elements_text(${given}) with ordinality as given(track_id, position)
      where ${tracks.id} = given.track_id::uuid and ${tracks.albumId} = ${id}
        and exists (select from ${albums} where ${albums.id} = ${id} and ${albums.artistId} = ${caller.id})
        and (select count(*) from ${tracks} where ${tracks.albumId} = ${id}) = ${trackIds.length}
        and (select count(*) from ${tracks} where ${tracks.albumId} = ${id}
          and ${tracks.id}::text in (select jsonb_array_elements_text(${given}))) = ${trackIds.length}`),
    db.select({ id: tracks.id }).from(tracks).where(eq(tracks.albumId, id)),
    ...albumReads(db, id),
  ]);
  const [album] = locked;
  if (!album) throw albumNotFound(id);
  assertOwner(caller, album.artistId, "album");
  const holds = new Set(held.map((row) => row.id));
  if (holds.size !== trackIds.length || !trackIds.every((track) => holds.has(track))) {
    throw new ValidationError([
      {
        path: "body.trackIds",
        message: `must name each of the album's ${holds.size} tracks exactly once`,
        code: "not_the_album_tracks",
      },
    ]);
  }
  return toAlbum(id, rows, trackRows);
}

/**
 * Deletes the album; the schema turns its tracks into singles (album_id set null), so no track
 * is lost. The cover object is deleted after the row; a storage failure is only logged.
 */
export async function deleteAlbum(
  ctx: Pick<RequestDeps, "db" | "storage" | "log" | "principal">,
  id: string,
): Promise<void> {
  const caller = ctx.principal;
  const [row] = await ctx.db
    .delete(albums)
    .where(and(eq(albums.id, id), eq(albums.artistId, caller.id)))
    .returning({ cover: albums.cover });
  if (!row) {
    const [other] = await ctx.db
      .select({ artistId: albums.artistId })
      .from(albums)
      .where(eq(albums.id, id));
    if (other) assertOwner(caller, other.artistId, "album");
    throw albumNotFound(id);
  }
  await discardImages(ctx, [row.cover], { albumId: id });
}
