import {
  albums,
  artists,
  playlists,
  playlistTracks,
  type Queryable,
  qualified,
  trackFiles,
  tracks,
  users,
} from "@edge-music/db";
import { and, eq, sql } from "drizzle-orm";
import { listedAlbum, listedPlaylist, listedTrack } from "../sharing/queries.ts";

/**
 * What a link preview shows of an item, read in ONE statement per kind, public items only
 * (`visibility = 'public'`, and READY for a track): anything else reads as missing, so a
 * preview never shows a private or unlisted item (ADR 0025, 0027).
 */

const shownName = (table: typeof artists | typeof users) =>
  sql<string>`coalesce(${table.displayName}, ${table.username})`;

export const trackPreviewQuery = (db: Queryable, id: string) =>
  db
    .select({
      title: tracks.title,
      cover: tracks.cover,
      duration: tracks.duration,
      artistId: tracks.artistId,
      artistName: shownName(artists),
      artistAvatar: artists.avatar,
      // The album's cover and title only while the album is public too.
      albumTitle: sql<string | null>`(select ${qualified(albums.title)} from ${albums}
        where ${qualified(albums.id)} = ${qualified(tracks.albumId)} and ${listedAlbum})`,
      albumCover: sql<string | null>`(select ${qualified(albums.cover)} from ${albums}
        where ${qualified(albums.id)} = ${qualified(tracks.albumId)} and ${listedAlbum})`,
      // The smallest whole Opus file, for `og:audio` (a source below 128 kbps has a lower one).
      opusKbps: sql<number | null>`(select min(${qualified(trackFiles.bitrate)}) from ${trackFiles}
        where ${qualified(trackFiles.trackId)} = ${qualified(tracks.id)} and ${qualified(trackFiles.kind)} = 'opus')`,
    })
    .from(tracks)
    .innerJoin(artists, eq(artists.id, tracks.artistId))
    .where(and(eq(tracks.id, id), listedTrack));

export const albumPreviewQuery = (db: Queryable, id: string) =>
  db
    .select({
      title: albums.title,
      cover: albums.cover,
      description: albums.description,
      releasedAt: albums.releasedAt,
      artistId: albums.artistId,
      artistName: shownName(artists),
      artistAvatar: artists.avatar,
      trackCount: sql<number>`(select count(*)::int from ${tracks}
        where ${qualified(tracks.albumId)} = ${qualified(albums.id)} and ${listedTrack})`,
    })
    .from(albums)
    .innerJoin(artists, eq(artists.id, albums.artistId))
    .where(and(eq(albums.id, id), listedAlbum));

export const playlistPreviewQuery = (db: Queryable, id: string) =>
  db
    .select({
      title: playlists.title,
      cover: playlists.cover,
      description: playlists.description,
      // The display name only: a listener's username may come from their email address, so it is
      // never shown with a playlist (as GET /playlists/{id} shows its owner).
      ownerName: users.displayName,
      trackCount: sql<number>`(select count(*)::int from ${playlistTracks}
        join ${tracks} on ${qualified(tracks.id)} = ${qualified(playlistTracks.trackId)}
        where ${qualified(playlistTracks.playlistId)} = ${qualified(playlists.id)} and ${listedTrack})`,
      // Without a cover of its own: the first listed track's cover, as the player's mosaic starts.
      firstCover: sql<string | null>`(select ${qualified(tracks.cover)} from ${playlistTracks}
        join ${tracks} on ${qualified(tracks.id)} = ${qualified(playlistTracks.trackId)}
        where ${qualified(playlistTracks.playlistId)} = ${qualified(playlists.id)} and ${listedTrack}
          and ${qualified(tracks.cover)} is not null
        order by ${qualified(playlistTracks.position)} limit 1)`,
    })
    .from(playlists)
    .innerJoin(users, eq(users.id, playlists.userId))
    .where(and(eq(playlists.id, id), listedPlaylist));

export const artistPreviewQuery = (db: Queryable, id: string) =>
  db
    .select({
      username: artists.username,
      name: shownName(artists),
      bio: artists.bio,
      avatar: artists.avatar,
      trackCount: sql<number>`(select count(*)::int from ${tracks}
        where ${qualified(tracks.artistId)} = ${qualified(artists.id)} and ${listedTrack})`,
    })
    .from(artists)
    .where(eq(artists.id, id));
