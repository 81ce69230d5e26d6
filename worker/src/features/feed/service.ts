import { albums, artists, follows, tracks } from "@edge-music/db";
import { and, count, desc, eq, exists, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ValidationError } from "../../errors/app-error.ts";
import type { RequestDeps } from "../../request-deps.ts";
import { SUMMARY, toSummary } from "../albums/queries.ts";
import { listedAlbum, listedTrack } from "../sharing/queries.ts";
import { PUBLIC_TRACK_COLUMNS, toTrackDto } from "../tracks/catalogue/queries.ts";
import type { FeedInput, FeedItemView, FeedView } from "./schema.ts";

type FeedDeps = Pick<RequestDeps, "db" | "principal">;

/** Where a page ends: the last item's time (to the microsecond, as Postgres keeps it) and id. */
interface Cursor {
  at: string;
  id: string;
}

const encode = (cursor: Cursor) => btoa(JSON.stringify([cursor.at, cursor.id])).replace(/=+$/, "");

function decode(text: string): Cursor {
  const bad = () =>
    new ValidationError([
      { path: "query.cursor", message: "not a cursor of this feed", code: "bad_cursor" },
    ]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(text));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "string" ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(parsed[0]) ||
    typeof parsed[1] !== "string" ||
    !/^[0-9a-f-]{36}$/.test(parsed[1])
  ) {
    throw bad();
  }
  return { at: parsed[0], id: parsed[1] };
}

/** A timestamp as UTC ISO text with its microseconds: a cursor that loses none of them. */
const exactly = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** After the cursor in "newest first, then id" order. */
const after = (at: AnyPgColumn, id: AnyPgColumn, cursor: Cursor | undefined): SQL | undefined =>
  cursor ? sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined;

/** The outer query's artist is followed by the caller. */
const followed = (userId: string, artistId: AnyPgColumn) =>
  sql`exists (select 1 from ${follows} where ${follows.userId} = ${userId} and ${follows.artistId} = ${artistId})`;

/**
 * GET /users/me/feed: the followed artists' releases, newest first: singles (READY public tracks
 * on no album) and public albums holding a READY public track (ADR 0025). One round trip: a batch of each kind's page (each cut
 * at limit + 1, then merged: the first `limit` of the merge are the page, whatever the mix) and,
 * with `since`, each kind's count after it.
 */
export async function getFeed(ctx: FeedDeps, input: FeedInput): Promise<FeedView> {
  const { db } = ctx;
  const userId = ctx.principal.id;
  const cursor = input.cursor === undefined ? undefined : decode(input.cursor);
  const take = input.limit + 1;
  const single = and(listedTrack, isNull(tracks.albumId), followed(userId, tracks.artistId));
  const released = and(
    followed(userId, albums.artistId),
    listedAlbum,
    exists(
      db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.albumId, albums.id), listedTrack)),
    ),
  );
  const since = input.since ? new Date(input.since) : undefined;
  const [singles, albumRows, newSingles, newAlbums] = await db.batch([
    db
      .select({ ...PUBLIC_TRACK_COLUMNS, at: exactly(tracks.createdAt) })
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(single, after(tracks.createdAt, tracks.id, cursor)))
      .orderBy(desc(tracks.createdAt), desc(tracks.id))
      .limit(take),
    db
      .select({ ...SUMMARY, at: exactly(albums.createdAt) })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      .where(and(released, after(albums.createdAt, albums.id, cursor)))
      .orderBy(desc(albums.createdAt), desc(albums.id))
      .limit(take),
    db
      .select({ n: count() })
      .from(tracks)
      .where(and(single, since ? gt(tracks.createdAt, since) : sql`false`)),
    db
      .select({ n: count() })
      .from(albums)
      .where(and(released, since ? gt(albums.createdAt, since) : sql`false`)),
  ]);
  const merged: Array<FeedItemView & { key: Cursor }> = [
    ...singles.map(({ at, ...row }) => ({
      type: "track" as const,
      at: toIso(at),
      track: toTrackDto(row),
      key: { at, id: row.id },
    })),
    ...albumRows.map(({ at, ...row }) => ({
      type: "album" as const,
      at: toIso(at),
      album: toSummary(row),
      key: { at, id: row.id },
    })),
  ].sort((a, b) => (a.key.at === b.key.at ? cmp(b.key.id, a.key.id) : cmp(b.key.at, a.key.at)));
  const page = merged.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ key: _key, ...item }) => item),
    nextCursor: merged.length > input.limit && last ? encode(last.key) : null,
    newSince: since ? (newSingles[0]?.n ?? 0) + (newAlbums[0]?.n ?? 0) : null,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The microsecond text as the API's timestamps read (milliseconds). */
const toIso = (at: string) => new Date(at).toISOString();
