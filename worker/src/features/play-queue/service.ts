import { artists, playQueues, tracks } from "@edge-music/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { RequestDeps } from "../../request-deps.ts";
import { listedTrack } from "../sharing/queries.ts";
import { PUBLIC_TRACK_COLUMNS, toTrackDto } from "../tracks/catalogue/queries.ts";
import type { PlayQueueIn, PlayQueueView } from "./schema.ts";

type QueueDeps = Pick<RequestDeps, "db" | "principal">;

/**
 * GET /users/me/play-queue. One batch: the saved row and the READY tracks it names; the queue is
 * rebuilt in saved order (duplicates kept), leaving out what cannot be played any more.
 */
export async function getPlayQueue(ctx: QueueDeps): Promise<PlayQueueView> {
  const { db } = ctx;
  const userId = ctx.principal.id;
  const saved = db
    .select({ ids: sql`unnest(${playQueues.trackIds})` })
    .from(playQueues)
    .where(eq(playQueues.userId, userId));
  const [rows, found] = await db.batch([
    db.select().from(playQueues).where(eq(playQueues.userId, userId)),
    db
      .select(PUBLIC_TRACK_COLUMNS)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(inArray(tracks.id, saved), listedTrack)),
  ]);
  const row = rows[0];
  if (!row) return { tracks: [], current: null, position: 0, changedAt: null, changedBy: "" };
  const byId = new Map(found.map((track) => [track.id, toTrackDto(track)]));
  const queue = row.trackIds.flatMap((id) => byId.get(id) ?? []);
  const current = row.currentTrackId && byId.has(row.currentTrackId) ? row.currentTrackId : null;
  return {
    tracks: queue,
    current,
    position: current ? row.position : 0,
    changedAt: row.updatedAt.toISOString(),
    changedBy: row.changedBy,
  };
}

/** PUT /users/me/play-queue: replaces the saved queue (an empty one clears it). One statement. */
export async function savePlayQueue(ctx: QueueDeps & Pick<RequestDeps, "now">, input: PlayQueueIn) {
  await saveQueueStatement(ctx.db, ctx.principal.id, input, ctx.now);
}

/** The statement that replaces `userId`'s saved queue: the REST API's and Subsonic's. */
export function saveQueueStatement(
  db: RequestDeps["db"],
  userId: string,
  input: PlayQueueIn,
  now: Date,
) {
  const values = {
    trackIds: input.trackIds,
    currentTrackId: input.current,
    position: input.current ? input.position : 0,
    changedBy: input.client,
    updatedAt: now,
  };
  return db
    .insert(playQueues)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: playQueues.userId, set: values });
}
