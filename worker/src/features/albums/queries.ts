import { albums, artists } from "@edge-music/db";
import type { AlbumSummaryView } from "./schema.ts";

/** An album's columns in lists (with its artist, joined), shared with the feed. */
export const SUMMARY = {
  id: albums.id,
  title: albums.title,
  cover: albums.cover,
  description: albums.description,
  releasedAt: albums.releasedAt,
  artistId: albums.artistId,
  visibility: albums.visibility,
  createdAt: albums.createdAt,
  artistUsername: artists.username,
  artistDisplayName: artists.displayName,
  artistAvatar: artists.avatar,
};

interface SummaryRow {
  id: string;
  title: string;
  cover: string | null;
  description: string;
  releasedAt: string | null;
  artistId: string;
  visibility: "public" | "unlisted" | "private";
  createdAt: Date;
  artistUsername: string;
  artistDisplayName: string | null;
  artistAvatar: string | null;
}

export const toSummary = ({
  artistUsername,
  artistDisplayName,
  artistAvatar,
  ...row
}: SummaryRow): AlbumSummaryView => ({
  ...row,
  artist: {
    id: row.artistId,
    username: artistUsername,
    displayName: artistDisplayName,
    avatar: artistAvatar,
  },
  createdAt: row.createdAt.toISOString(),
});
