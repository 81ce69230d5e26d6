import { type HttpDatabase, listeningHistory, tracks, uuids } from "@edge-music/db";
import { sql } from "drizzle-orm";
import { listedTrack } from "../sharing/queries.ts";
import { uuidv7 } from "./uuidv7.ts";

/**
 * One statement: a listen of each of `trackIds` (in order, repeats kept) by `userId`, for those
 * that are listed (ADR 0025); the others insert nothing. `listened_at` is Postgres's now(): one
 * clock for every Worker, to the microsecond. Answers the rows written. For `POST /history` and
 * Subsonic's `scrobble`.
 */
export function listensStatement(db: HttpDatabase, userId: string, trackIds: string[]) {
  const ids = trackIds.map(() => uuidv7());
  return db.execute<{ id: string; listened_at: string }>(sql`
    insert into ${listeningHistory} (id, user_id, track_id, listened_at)
    select named.id, ${userId}, ${tracks.id}, now()
    from unnest(${uuids(ids)}, ${uuids(trackIds)}) as named(id, track_id)
    join ${tracks} on ${tracks.id} = named.track_id
    where ${listedTrack}
    returning id, to_json(listened_at) #>> '{}' as listened_at`);
}
