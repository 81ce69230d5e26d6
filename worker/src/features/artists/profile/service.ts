import { trackKeys } from "@edge-music/contracts";
import {
  albums,
  artistLikes,
  artists,
  follows,
  pgErrorCode,
  tracks,
  trackUploads,
  UNIQUE_VIOLATION,
} from "@edge-music/db";
import { count, desc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { discardConversionJobs } from "../../../connections/queue.ts";
import { ConflictError, NotFoundError } from "../../../errors/app-error.ts";
import { deleteMedia, type Image } from "../../../images/images.ts";
import { type NewImages, replaceImages } from "../../../images/replace.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { deletePrefix } from "../../../storage/index.ts";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { withSecondFactor } from "../../auth/two-factor/second-factor.ts";
import { abortInStorage } from "../../tracks/direct-upload/service.ts";
import { countOf, publicArtistColumns, relationOf } from "./queries.ts";
import type { ArtistWithViewerOut } from "./schema.ts";

/** What the profile services take; each function picks what it uses. */
type ArtistDeps = Pick<
  RequestDeps,
  "db" | "redis" | "storage" | "log" | "env" | "waitUntil" | "principal" | "viewer"
>;

type Row = { createdAt: Date } & Record<string, unknown>;
const dto = <T extends Row>(row: T) => ({ ...row, createdAt: row.createdAt.toISOString() });

export async function listArtists(ctx: Pick<ArtistDeps, "db">, page: Page) {
  const followers = ctx.db
    .select({ artistId: follows.artistId, n: count().as("n") })
    .from(follows)
    .groupBy(follows.artistId)
    .as("followers");
  const rows = await ctx.db
    .select({ ...publicArtistColumns, followers: sql<number>`coalesce(${followers.n}, 0)::int` })
    .from(artists)
    .leftJoin(followers, eq(followers.artistId, artists.id))
    .orderBy(desc(artists.createdAt), desc(artists.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  return rows.map(({ followers: n, ...row }) => ({ ...dto(row), _count: { followers: n } }));
}

/**
 * GET /artists/:id and /artists/by-username/:username, with the follower and like counts. A
 * signed-in listener also gets their own relation to the artist (`viewer`). Counts and relation
 * are columns of the same statement (subqueries), so the read stays one round trip with the
 * session check. Anonymous callers and artists get no `viewer`.
 */
export async function getArtist(
  ctx: Pick<ArtistDeps, "db" | "viewer">,
  by: { id: string } | { username: string },
): Promise<ArtistWithViewerOut> {
  const listener = ctx.viewer?.kind === "user" ? ctx.viewer.id : null;
  const mine = (relation: typeof follows | typeof artistLikes) =>
    listener ? relationOf(relation, listener) : sql<boolean>`false`;
  const [row] = await ctx.db
    .select({
      ...publicArtistColumns,
      followers: countOf(follows),
      likes: countOf(artistLikes),
      following: mine(follows),
      liked: mine(artistLikes),
    })
    .from(artists)
    .where(
      "id" in by ? eq(artists.id, by.id) : sql`lower(${artists.username}) = lower(${by.username})`,
    );
  if (!row) throw new NotFoundError("No such artist.");
  const { followers, likes, following, liked, ...artist } = row;
  const profile = { ...dto(artist), _count: { followers, likes } };
  if (!listener) return profile;
  return { ...profile, viewer: { following: following === true, liked: liked === true } };
}

export interface ArtistUpdate {
  username?: string | undefined;
  displayName?: string | null | undefined;
  bio?: string | undefined;
  avatar?: Image | undefined;
  backgroundImage?: Image | undefined;
}

/**
 * The caller's own profile (the route checks that `id` is the caller's, so no owner check waits
 * for the database). One statement updates the row and answers it. New images are stored first
 * and the same round trip points the row at them (`replaceImages`): a batch that locks the row
 * and reads the paths it replaces. If that batch fails (a taken name, a dead session) the new
 * objects are deleted at once.
 */
export async function updateArtist(
  ctx: Pick<ArtistDeps, "db" | "storage" | "log">,
  id: string,
  update: ArtistUpdate,
) {
  const images: NewImages<"avatar" | "backgroundImage"> = {
    ...(update.avatar ? { avatar: { folder: "avatars", image: update.avatar } } : {}),
    ...(update.backgroundImage
      ? { backgroundImage: { folder: "backgrounds", image: update.backgroundImage } }
      : {}),
  };
  const fields = {
    ...(update.username !== undefined ? { username: update.username } : {}),
    ...(update.displayName !== undefined ? { displayName: update.displayName } : {}),
    ...(update.bio !== undefined ? { bio: update.bio } : {}),
  };
  const { db } = ctx;
  try {
    return await replaceImages(ctx, images, async (stored) => {
      const [before, updated] = await db.batch([
        db
          .select({ avatar: artists.avatar, backgroundImage: artists.backgroundImage })
          .from(artists)
          .where(eq(artists.id, id))
          .for("update"),
        db
          .update(artists)
          // `id` (unchanged) keeps the SET list non-empty whatever the caller sent.
          .set({ ...fields, ...stored, id })
          .where(eq(artists.id, id))
          .returning(publicArtistColumns),
      ]);
      const [row] = updated;
      if (!row) throw new NotFoundError("No such artist.");
      return { previous: before[0] ?? {}, result: dto(row) };
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) {
      throw new ConflictError("This username is taken.", { cause: error });
    }
    throw error;
  }
}

/**
 * Deletes the account; the schema cascades to its sessions, tracks (with their files, playlist
 * entries and listens), albums, follows, likes and direct uploads. The tracks' conversion jobs go
 * next, and the uploads' multipart uploads are aborted in storage, both before the response: a
 * part URL lets anyone holding it write to the bucket, so none may outlive the account (at most
 * the artist's open uploads and those awaiting the clean-up, aborted in parallel). The objects in
 * storage are deleted after the response: nothing points at them any more, so they are
 * unreachable at once.
 */
export async function deleteArtist(
  ctx: ArtistDeps,
  id: string,
  reauth: { first: BatchItem<"pg">[]; giveBack?: () => Promise<unknown> } = { first: [] },
) {
  // One batch (one transaction): the re-authentication's statements (counters given back, a code
  // used up), what the rows point at in storage, then the rows.
  const { db } = ctx;
  const { first, giveBack } = reauth;
  const results = (await withSecondFactor(
    () =>
      db.batch([
        ...first,
        db
          .select({ id: tracks.id, cover: tracks.cover, sourceFileName: tracks.sourceFileName })
          .from(tracks)
          .where(eq(tracks.artistId, id)),
        db.select({ cover: albums.cover }).from(albums).where(eq(albums.artistId, id)),
        db
          .select({
            id: trackUploads.id,
            storageKey: trackUploads.storageKey,
            multipartId: trackUploads.multipartId,
          })
          .from(trackUploads)
          .where(eq(trackUploads.artistId, id))
          // A start recording storage's id meanwhile waits, then finds no row and aborts its own.
          .for("update"),
        db
          .delete(artists)
          .where(eq(artists.id, id))
          .returning({ avatar: artists.avatar, backgroundImage: artists.backgroundImage }),
      ] as unknown as [BatchItem<"pg">, ...BatchItem<"pg">[]]),
    giveBack,
  )) as unknown[];
  const [ownTracks, ownAlbums, uploads, deleted] = results.slice(-4) as [
    Array<{ id: string; cover: string | null; sourceFileName: string | null }>,
    Array<{ cover: string | null }>,
    Array<{ id: string; storageKey: string; multipartId: string }>,
    Array<{ avatar: string | null; backgroundImage: string | null }>,
  ];
  const [artist] = deleted;
  if (!artist) throw new NotFoundError("No such artist.");
  // Their jobs before the response, on the request's Redis connection (closed after it).
  await discardConversionJobs(
    ctx,
    ownTracks.map((track) => ({ trackId: track.id, sourceFileName: track.sourceFileName })),
  );
  // A failed abort is logged; the bucket's lifecycle rule aborts it after a day.
  await abortInStorage(ctx, uploads);
  const media = { ownTracks, covers: [...ownTracks, ...ownAlbums].map((r) => r.cover) };
  ctx.waitUntil(
    (async () => {
      await deleteMedia(ctx.storage, [artist.avatar, artist.backgroundImage, ...media.covers]);
      for (const track of media.ownTracks)
        await deletePrefix(ctx.storage, trackKeys(track.id).prefix);
    })().catch((error) =>
      ctx.log.error("deleting an artist's objects failed", { artistId: id, error: String(error) }),
    ),
  );
}
