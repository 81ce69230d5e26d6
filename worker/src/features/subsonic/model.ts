import type { SongRow } from "./queries.ts";
import type { SubsonicNode } from "./respond.ts";

/**
 * Our catalogue in the protocol's shapes: artists are our artists, albums our albums, songs our
 * READY tracks, by the same ids as in the REST API; a track without an album is in an album of
 * its own, `single-<track id>`. Cover art ids say whose cover they are (`tr-`, `al-`, `ar-`).
 */
export type CoverKind = "tr" | "al" | "ar";
export const coverArtId = (kind: CoverKind, id: string) => `${kind}-${id}`;

/** The cover art id of an album: its own cover, or the single's track's. */
export function albumCoverArt(albumId: string, hasCover: boolean): string | undefined {
  if (!hasCover) return undefined;
  return albumId.startsWith("single-")
    ? coverArtId("tr", albumId.slice("single-".length))
    : coverArtId("al", albumId);
}

const yearOf = (date: string | null | undefined) =>
  date ? Number.parseInt(date.slice(0, 4), 10) || undefined : undefined;

const iso = (value: Date | string) => new Date(value).toISOString();

/** A song (the protocol's Child) from a track row. */
export function songNode(row: SongRow): SubsonicNode {
  return {
    id: row.id,
    parent: row.albumId,
    isDir: false,
    title: row.title,
    album: row.albumTitle,
    artist: row.artistName,
    track: row.albumPosition ?? undefined,
    coverArt: row.cover || row.albumCover ? coverArtId("tr", row.id) : undefined,
    duration: row.duration === null ? undefined : Math.round(row.duration),
    // What `stream` answers by default: AAC in one whole MP4 file (media.ts).
    contentType: "audio/mp4",
    suffix: "m4a",
    type: "music",
    mediaType: "song",
    isVideo: false,
    albumId: row.albumId,
    artistId: row.artistId,
    created: iso(row.createdAt),
    playCount: row.playCount,
    userRating: row.userRating ?? undefined,
    starred: row.starredAt ? iso(row.starredAt) : undefined,
  };
}

export interface AlbumRow {
  id: string;
  name: string;
  cover: string | null;
  songCount: number;
  duration: number;
  created: string | Date;
  releasedAt: string | null;
}

/** An album (AlbumID3) of an artist. */
export function albumNode(row: AlbumRow, artist: { id: string; name: string }): SubsonicNode {
  return {
    id: row.id,
    name: row.name,
    title: row.name,
    artist: artist.name,
    artistId: artist.id,
    coverArt: albumCoverArt(row.id, row.cover !== null),
    songCount: row.songCount,
    duration: Math.round(row.duration),
    created: iso(row.created),
    year: yearOf(row.releasedAt),
  };
}

/** An artist (ArtistID3). */
export function artistNode(row: {
  id: string;
  name: string;
  avatar: string | null;
  albumCount?: number;
}): SubsonicNode {
  return {
    id: row.id,
    name: row.name,
    coverArt: row.avatar ? coverArtId("ar", row.id) : undefined,
    albumCount: row.albumCount,
  };
}

/** Artists grouped under the first letter of their name (`#` for anything but A–Z). */
export function indexed<T extends { name: string }>(rows: T[], node: (row: T) => SubsonicNode) {
  const groups = new Map<string, SubsonicNode[]>();
  for (const row of rows) {
    const first = row.name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .charAt(0)
      .toUpperCase();
    const letter = /^[A-Z]$/.test(first) ? first : "#";
    groups.set(letter, [...(groups.get(letter) ?? []), node(row)]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === "#" ? 1 : b === "#" ? -1 : a.localeCompare(b)))
    .map(([name, artist]) => ({ name, artist }));
}
