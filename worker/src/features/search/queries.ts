import {
  albums,
  artists,
  type Database,
  follows,
  playlistLikes,
  playlists,
  tracks,
} from "@edge-music/db";
import { and, desc, eq, sql } from "drizzle-orm";
import { byRank, matches, RANK, rankOf, type SearchTerms } from "./matching.ts";
import type { AlbumResult, ArtistResult, PlaylistResult, TrackResult } from "./schema.ts";

/*
 * One query per type, each: matching rows, ordered by rank, then popularity (followers of an
 * artist, likes of a playlist; tracks and albums have no popularity measure, so newest first),
 * then newest, then id so that the order is total.
 */

export function findTracks(db: Database, terms: SearchTerms, limit: number) {
  return db
    .select({
      id: tracks.id,
      title: tracks.title,
      cover: tracks.cover,
      artistId: tracks.artistId,
      rank: rankOf(tracks.title, terms).as(RANK),
    })
    .from(tracks)
    .where(and(eq(tracks.processingStatus, "READY"), matches(tracks.title, terms)))
    .orderBy(byRank, desc(tracks.createdAt), desc(tracks.id))
    .limit(limit) satisfies PromiseLike<TrackResult[]>;
}

export function findArtists(db: Database, terms: SearchTerms, limit: number) {
  const followers = sql`(SELECT count(*) FROM ${follows} WHERE ${follows.artistId} = ${artists.id})`;
  return db
    .select({
      id: artists.id,
      username: artists.username,
      avatar: artists.avatar,
      bio: artists.bio,
      rank: rankOf(artists.username, terms).as(RANK),
    })
    .from(artists)
    .where(matches(artists.username, terms))
    .orderBy(byRank, sql`${followers} DESC`, desc(artists.createdAt), desc(artists.id))
    .limit(limit) satisfies PromiseLike<ArtistResult[]>;
}

export function findAlbums(db: Database, terms: SearchTerms, limit: number) {
  return db
    .select({
      id: albums.id,
      title: albums.title,
      cover: albums.cover,
      artistId: albums.artistId,
      releasedAt: albums.releasedAt,
      rank: rankOf(albums.title, terms).as(RANK),
    })
    .from(albums)
    .where(matches(albums.title, terms))
    .orderBy(byRank, desc(albums.createdAt), desc(albums.id))
    .limit(limit) satisfies PromiseLike<AlbumResult[]>;
}

export function findPlaylists(db: Database, terms: SearchTerms, limit: number) {
  const likes = sql`(SELECT count(*) FROM ${playlistLikes} WHERE ${playlistLikes.playlistId} = ${playlists.id})`;
  return db
    .select({
      id: playlists.id,
      title: playlists.title,
      description: playlists.description,
      cover: playlists.cover,
      userId: playlists.userId,
      rank: rankOf(playlists.title, terms).as(RANK),
    })
    .from(playlists)
    .where(and(eq(playlists.isPublic, true), matches(playlists.title, terms)))
    .orderBy(byRank, sql`${likes} DESC`, desc(playlists.createdAt), desc(playlists.id))
    .limit(limit) satisfies PromiseLike<PlaylistResult[]>;
}
