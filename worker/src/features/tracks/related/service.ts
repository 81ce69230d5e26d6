import { artists, listeningHistory, tracks } from "@edge-music/db";
import { and, countDistinct, desc, eq, inArray, ne } from "drizzle-orm";
import { NotFoundError } from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { listedTrack } from "../../sharing/queries.ts";
import { PUBLIC_TRACK_COLUMNS, toTrackDto } from "../catalogue/queries.ts";
import type { RelatedTrackView } from "./schema.ts";

/** How many of the track's latest listens say who its listeners are: a bound on the work. */
export const LISTENS_READ = 2000;

/**
 * GET /tracks/:id/related: "listeners of this track also played". The listeners are those of its
 * latest LISTENS_READ listens; every other READY track they played is scored by how many of them
 * played it (each listener once, however often they played it), highest first, then newest. One
 * round trip: the track's own check and the scores in one batch.
 */
export async function relatedTracks(
  ctx: Pick<RequestDeps, "db">,
  id: string,
  limit: number,
): Promise<RelatedTrackView[]> {
  const { db } = ctx;
  const recent = db
    .select({ userId: listeningHistory.userId })
    .from(listeningHistory)
    .where(eq(listeningHistory.trackId, id))
    .orderBy(desc(listeningHistory.listenedAt))
    .limit(LISTENS_READ);
  const co = db.$with("co").as(
    db
      .select({
        trackId: listeningHistory.trackId,
        listeners: countDistinct(listeningHistory.userId).as("listeners"),
      })
      .from(listeningHistory)
      .where(and(inArray(listeningHistory.userId, recent), ne(listeningHistory.trackId, id)))
      .groupBy(listeningHistory.trackId),
  );
  const [found, rows] = await db.batch([
    db
      .select({ id: tracks.id })
      .from(tracks)
      .where(and(eq(tracks.id, id), listedTrack)),
    db
      .with(co)
      .select({ ...PUBLIC_TRACK_COLUMNS, listeners: co.listeners })
      .from(co)
      .innerJoin(tracks, eq(tracks.id, co.trackId))
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(listedTrack)
      .orderBy(desc(co.listeners), desc(tracks.createdAt), desc(tracks.id))
      .limit(limit),
  ]);
  if (found.length === 0) throw new NotFoundError(`No track with id ${id}.`);
  return rows.map(({ listeners, ...row }) => ({
    ...toTrackDto(row),
    coListeners: Number(listeners),
  }));
}
