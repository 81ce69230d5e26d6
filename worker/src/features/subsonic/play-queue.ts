import { artists, type HttpDatabase, playQueues, tracks, users } from "@edge-music/db";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { PLAY_QUEUE_MAX } from "../play-queue/schema.ts";
import { saveQueueStatement } from "../play-queue/service.ts";
import { intArg, isUuid } from "./args.ts";
import { notFound, SUBSONIC_ERRORS, SubsonicError } from "./errors.ts";
import { method, noArgs } from "./method.ts";
import { songNode } from "./model.ts";
import { ready, SONG_COLUMNS, type SongRow } from "./queries.ts";

/**
 * The play queue is the REST API's saved queue (`/users/me/play-queue`): what an app saves, the
 * web player restores on another device, and the reverse. A listener's only; an artist account
 * has none (getPlayQueue answers none, savePlayQueue 50).
 */
function savedQueueQueries(db: HttpDatabase, userId: SQL) {
  const saved = db
    .select({ id: sql`unnest(${playQueues.trackIds})` })
    .from(playQueues)
    .where(eq(playQueues.userId, userId));
  return [
    db
      .select({
        trackIds: playQueues.trackIds,
        current: playQueues.currentTrackId,
        position: playQueues.position,
        changedBy: playQueues.changedBy,
        changed: playQueues.updatedAt,
        username: users.username,
      })
      .from(playQueues)
      .innerJoin(users, eq(users.id, playQueues.userId))
      .where(eq(playQueues.userId, userId)),
    db
      .select(SONG_COLUMNS)
      .from(tracks)
      .innerJoin(artists, eq(artists.id, tracks.artistId))
      .where(and(inArray(tracks.id, saved), ready)),
  ] as const;
}

type SavedRow = Awaited<ReturnType<typeof savedQueueQueries>[0]>[number];

interface QueueArgs {
  ids: string[];
  current: string | null;
  /** Seconds, as the REST API keeps it (the protocol sends milliseconds). */
  position: number;
  client: string;
}

function queueArgs(params: URLSearchParams): QueueArgs {
  const ids = params.getAll("id");
  if (!ids.every(isUuid)) throw notFound("Song");
  if (ids.length > PLAY_QUEUE_MAX) {
    throw new SubsonicError(
      SUBSONIC_ERRORS.generic,
      `A play queue holds at most ${PLAY_QUEUE_MAX} songs.`,
    );
  }
  const current = params.get("current")?.toLowerCase() ?? null;
  const lower = ids.map((id) => id.toLowerCase());
  if (current !== null && !lower.includes(current)) {
    throw new SubsonicError(SUBSONIC_ERRORS.generic, "current must be one of the queue's ids.");
  }
  const ms = Math.max(intArg(params, "position") ?? 0, 0);
  return {
    ids: lower,
    current,
    position: Math.min(ms / 1000, 86_400),
    client: (params.get("c") ?? "").slice(0, 64),
  };
}

export const playQueueMethods = {
  getPlayQueue: method({
    args: noArgs,
    reads: (deps, _args, userId) => [...savedQueueQueries(deps.db, userId)],
    answer: ({ caller, results }) => {
      // Read for the claimed listener: the caller's only if it is one.
      const [row] = caller.kind === "user" ? (results[0] as SavedRow[]) : [];
      if (!row || row.trackIds.length === 0) return {};
      const byId = new Map((results[1] as SongRow[]).map((song) => [song.id, song]));
      const entry = row.trackIds.flatMap((id) => {
        const song = byId.get(id);
        return song ? [songNode(song)] : [];
      });
      const current = row.current && byId.has(row.current) ? row.current : undefined;
      return {
        playQueue: {
          current,
          position: current ? Math.round(row.position * 1000) : 0,
          username: row.username,
          changed: row.changed.toISOString(),
          changedBy: row.changedBy,
          entry,
        },
      };
    },
  }),
  savePlayQueue: method({
    args: queueArgs,
    // The REST API's statement (no id clears the queue), in the call's batch.
    writes: (deps, args, caller) => {
      if (caller.kind !== "user") {
        throw new SubsonicError(
          SUBSONIC_ERRORS.notAuthorized,
          "User is not authorized for the given operation: the play queue is a listener's.",
        );
      }
      const { ids: trackIds, current, position, client } = args;
      return [
        saveQueueStatement(deps.db, caller.id, { trackIds, current, position, client }, deps.now),
      ];
    },
    answer: () => ({}),
  }),
};
