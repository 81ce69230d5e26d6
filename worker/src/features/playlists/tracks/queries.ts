import { allFound, playlists, playlistTracks, tracks, uuids } from "@edge-music/db";
import { type SQL, sql } from "drizzle-orm";
import type { Principal } from "../../../security/principal.ts";
import { listedTrack, listedTrackIds } from "../../sharing/queries.ts";
import { PLAYLIST_TRACKS_MAX } from "../schema.ts";
import type { PlaylistDeps } from "../service.ts";

/** SQL: the playlist is the caller's (the same rule, in the statement that writes). */
export const ownedBy = (id: string, principal: Principal) =>
  sql`exists (select from ${playlists} where ${playlists.id} = ${id} and ${playlists.userId} = ${principal.id})`;

/**
 * One statement: `write` (an insert, update or delete, guarded by its own conditions, after the
 * CTEs of `prelude`) and, when it wrote a row, the playlist's `updated_at` touched; answers
 * `changed`, and the columns of `also` (scalar subqueries over the prelude).
 */
export const changeAndTouch = <Also extends Record<string, unknown> = Record<never, never>>(
  db: PlaylistDeps["db"],
  id: string,
  write: SQL,
  prelude = sql``,
  also = sql``,
) =>
  db.execute<{ changed: number } & Also>(sql`
    with ${prelude} changed as (${write} returning 1), touched as (
      update ${playlists} set ${sql.identifier(playlists.updatedAt.name)} = now()
      where ${playlists.id} = ${id} and exists (select from changed)
      returning 1
    )
    select count(*)::int as changed ${also} from changed`);

/**
 * One statement: `trackIds` (distinct, lower case) appended in order after the playlist's last
 * entry, those already in it skipped, and the playlist touched, only when the caller owns it,
 * every track is listed and there is room for them (PLAYLIST_TRACKS_MAX); else nothing. For
 * `POST /playlists/:id/tracks` and Subsonic's playlist changes; both lock the playlist's row
 * first (`ownerRow` with `lock`), so concurrent appends never take the same positions.
 */
export const appendAndTouch = (
  db: PlaylistDeps["db"],
  id: string,
  principal: Principal,
  trackIds: string[],
) => {
  const ids = uuids(trackIds);
  return changeAndTouch(
    db,
    id,
    sql`
      insert into ${playlistTracks} (playlist_id, track_id, position)
      select ${id}, f.id, s.last + row_number() over (order by f.ord)
      from fresh f cross join state s
      where ${ownedBy(id, principal)}
        and ${allFound(trackIds, listedTrackIds)} and ${roomFor(id, trackIds)}`,
    sql`
      state as (
        select count(*) as entries, coalesce(max(${playlistTracks.position}), -1) as last
        from ${playlistTracks} where ${playlistTracks.playlistId} = ${id}
      ), fresh as (
        select t.id, t.ord from unnest(${ids}) with ordinality as t(id, ord)
        where not exists (
          select from ${playlistTracks}
          where ${playlistTracks.playlistId} = ${id} and ${playlistTracks.trackId} = t.id
        )
      ),`,
  );
};

/**
 * SQL: playlist `id` has room (PLAYLIST_TRACKS_MAX) for those of `trackIds` it does not hold
 * yet: the append's own condition, and what Subsonic checks before it to answer why.
 */
export const roomFor = (id: string, trackIds: string[]) => sql`
  (select count(*) from ${playlistTracks} where ${playlistTracks.playlistId} = ${id})
  + (select count(*) from unnest(${uuids(trackIds)}) as t(id) where not exists (
    select from ${playlistTracks}
    where ${playlistTracks.playlistId} = ${id} and ${playlistTracks.trackId} = t.id
  )) <= ${PLAYLIST_TRACKS_MAX}`;

/** What the reorder statement saw: ids of the request not in the playlist, and the reverse. */
export type ReorderVerdict = { extra: string[]; omitted: string[] };

/**
 * One statement: the playlist's listed (READY) entries are compared with `trackIds` (distinct,
 * lower case), and only when they are the same set, in another order, and the caller owns the
 * playlist, each entry's position becomes its index in `trackIds`; the playlist is touched then.
 * The comparison and the write read one snapshot, so no entry added or removed in between can be
 * left out of the order. Positions are not unique (playlist-tracks.ts): rows may pass through
 * equal positions during the update. Entries that are not listed keep theirs.
 */
export const reorderAndTouch = (
  db: PlaylistDeps["db"],
  id: string,
  principal: Principal,
  trackIds: string[],
) =>
  changeAndTouch<ReorderVerdict>(
    db,
    id,
    sql`
      update ${playlistTracks} set ${sql.identifier(playlistTracks.position.name)} = w.ord - 1
      from wanted w, verdict v
      where ${playlistTracks.playlistId} = ${id} and ${playlistTracks.trackId} = w.id
        and cardinality(v.extra) = 0 and cardinality(v.omitted) = 0 and v.moved
        and ${ownedBy(id, principal)}`,
    sql`
      wanted as (
        select t.id, t.ord from unnest(${uuids(trackIds)}) with ordinality as t(id, ord)
      ), listed as (
        select ${playlistTracks.trackId} as id,
          row_number() over (order by ${playlistTracks.position}, ${playlistTracks.trackId}) as ord
        from ${playlistTracks} join ${tracks} on ${tracks.id} = ${playlistTracks.trackId}
        where ${playlistTracks.playlistId} = ${id} and ${listedTrack}
      ), verdict as (
        select
          array(select w.id from wanted w where not exists (select from listed l where l.id = w.id)
            order by w.ord)::text[] as extra,
          array(select l.id from listed l where not exists (select from wanted w where w.id = l.id)
            order by l.ord)::text[] as omitted,
          exists (select from wanted w join listed l on l.id = w.id where l.ord <> w.ord) as moved
      ),`,
    sql`, (select extra from verdict) as extra, (select omitted from verdict) as omitted`,
  );
