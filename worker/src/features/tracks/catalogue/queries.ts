import { playbackGainDb } from "@edge-music/contracts";
import { albums, artists, type Queryable, qualified, tracks } from "@edge-music/db";
import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import { offsetOf, type Page } from "../../../validation/common.ts";
import { listedTrack } from "../../sharing/queries.ts";
import type { OwnTrackView, TrackView } from "./schema.ts";

/** The public columns (with the artist, joined); never source_key or source_file_name. */
export const PUBLIC_TRACK_COLUMNS = {
  id: tracks.id,
  title: tracks.title,
  cover: tracks.cover,
  duration: tracks.duration,
  artistId: tracks.artistId,
  albumId: tracks.albumId,
  albumPosition: tracks.albumPosition,
  // A scalar subquery (the primary key finds it): every query of these columns gets the album's
  // title without a join of its own.
  albumTitle: sql<
    string | null
  >`(select ${qualified(albums.title)} from ${albums} where ${qualified(albums.id)} = ${qualified(tracks.albumId)})`,
  createdAt: tracks.createdAt,
  plays: tracks.plays,
  loudnessLufs: tracks.loudnessLufs,
  truePeakDbtp: tracks.truePeakDbtp,
  artistUsername: artists.username,
  artistDisplayName: artists.displayName,
  artistAvatar: artists.avatar,
};

const PUBLIC = PUBLIC_TRACK_COLUMNS;

const OWN = {
  ...PUBLIC,
  visibility: tracks.visibility,
  processingStatus: tracks.processingStatus,
  processingError: tracks.processingError,
  sourceUnreadable: tracks.sourceUnreadable,
  processingAttempts: tracks.processingAttempts,
  processingStartedAt: tracks.processingStartedAt,
  processingFinishedAt: tracks.processingFinishedAt,
  processingProgress: tracks.processingProgress,
};

interface PublicRow {
  id: string;
  title: string;
  cover: string | null;
  duration: number | null;
  artistId: string;
  albumId: string | null;
  albumPosition: number | null;
  albumTitle: string | null;
  createdAt: Date;
  plays: number;
  loudnessLufs: number | null;
  truePeakDbtp: number | null;
  artistUsername: string;
  artistDisplayName: string | null;
  artistAvatar: string | null;
}
/** The owner's columns, selected (its rows' type names `OwnRow`). */
const ownRows = (db: Queryable) =>
  db.select(OWN).from(tracks).innerJoin(artists, eq(artists.id, tracks.artistId));
type OwnRow = Awaited<ReturnType<typeof ownRows>>[number];

export const toTrackDto = (row: PublicRow): TrackView => ({
  id: row.id,
  title: row.title,
  cover: row.cover,
  duration: row.duration,
  artistId: row.artistId,
  albumId: row.albumId,
  album: row.albumId && row.albumTitle !== null ? { id: row.albumId, title: row.albumTitle } : null,
  albumPosition: row.albumId ? row.albumPosition : null,
  artist: {
    id: row.artistId,
    username: row.artistUsername,
    displayName: row.artistDisplayName,
    avatar: row.artistAvatar,
  },
  loudness:
    row.loudnessLufs === null
      ? null
      : {
          integratedLufs: row.loudnessLufs,
          truePeakDbtp: row.truePeakDbtp,
          gainDb: playbackGainDb({
            integratedLufs: row.loudnessLufs,
            truePeakDbtp: row.truePeakDbtp,
          }),
        },
  plays: row.plays,
  createdAt: row.createdAt.toISOString(),
});

export const toOwnTrackDto = (row: OwnRow): OwnTrackView => ({
  ...toTrackDto(row),
  visibility: row.visibility,
  processingStatus: row.processingStatus,
  processingError: row.processingError,
  sourceUnreadable: row.sourceUnreadable,
  processingAttempts: row.processingAttempts,
  processingStartedAt: row.processingStartedAt?.toISOString() ?? null,
  processingFinishedAt: row.processingFinishedAt?.toISOString() ?? null,
  processingProgress: row.processingProgress,
});

/**
 * The track in any state with its owner's fields, as a query (to send in a batch); with `key`,
 * also its share key and whether `key` is it (compared in SQL). The caller decides who may see it.
 */
export const findTrackQuery = (db: Queryable, id: string, key?: string) =>
  db
    .select({
      ...OWN,
      shareKey: tracks.shareKey,
      keyMatches:
        key === undefined ? sql<boolean>`false` : sql<boolean>`${tracks.shareKey} = ${key}`,
    })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(eq(tracks.id, id));

export interface TrackFilter {
  artistId?: string | undefined;
  albumId?: string | undefined;
  /** Which tracks the reader may see; by default what anyone may list (READY and public). */
  shown?: SQL | undefined;
}

/**
 * READY public tracks only: what anyone may list (ADR 0025). Newest first for the catalogue and an artist's
 * page; in album order inside an album (the artist's order, then the order they were added).
 * Ties break on id, so pages never overlap or skip. The query, to await or to send in a batch;
 * its rows go through `toTrackDto`.
 */
export function readyTracksQuery(
  db: Queryable,
  filter: TrackFilter,
  order: "newest" | "album",
  page?: Page,
) {
  const direction = order === "newest" ? desc : asc;
  const orderBy =
    order === "album"
      ? [asc(tracks.albumPosition), asc(tracks.createdAt), asc(tracks.id)]
      : [direction(tracks.createdAt), direction(tracks.id)];
  const query = db
    .select(PUBLIC)
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(
      and(
        filter.shown ?? listedTrack,
        filter.artistId ? eq(tracks.artistId, filter.artistId) : undefined,
        filter.albumId ? eq(tracks.albumId, filter.albumId) : undefined,
      ),
    )
    .orderBy(...orderBy)
    .$dynamic();
  return page ? query.limit(page.limit).offset(offsetOf(page)) : query;
}

export async function readyTracks(
  db: Queryable,
  filter: TrackFilter,
  order: "newest" | "album",
  page?: Page,
): Promise<TrackView[]> {
  return (await readyTracksQuery(db, filter, order, page)).map(toTrackDto);
}

/**
 * An artist's own tracks in every state (or in `status`), with the owner's fields, newest first
 * (ties by id): what the artist sees of their uploads.
 */
export function ownTracksQuery(
  db: Queryable,
  artistId: string,
  status: OwnRow["processingStatus"] | undefined,
  page: Page,
) {
  return db
    .select(OWN)
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(
      and(eq(tracks.artistId, artistId), status ? eq(tracks.processingStatus, status) : undefined),
    )
    .orderBy(desc(tracks.createdAt), desc(tracks.id))
    .limit(page.limit)
    .offset(offsetOf(page));
}

/**
 * The album id when it is one of the artist's albums, else NULL: a value for an insert, checked in
 * the same statement (the caller tells a NULL apart from a requested album and answers 404).
 */
export const ownAlbum = (albumId: string | null | undefined, artistId: string) =>
  albumId
    ? sql`(select ${albums.id} from ${albums} where ${albums.id} = ${albumId} and ${albums.artistId} = ${artistId})`
    : null;
