// What the embed shows, read from the public API of its own origin without cookies: the embed is
// framed by other sites and is the same for everyone (it reads what the edge cache keeps).
import type { components } from "@edge-music/client";

export type Kind = "tracks" | "albums" | "playlists";

export interface EmbedTrack {
  id: string;
  title: string;
  artist: string;
  artistId: string;
  cover: string | null;
  duration: number | null;
}

export interface EmbedItem {
  kind: Kind;
  id: string;
  title: string;
  /** The artist, or a playlist's owner by display name (null without one). */
  byline: string | null;
  /** The artist's page, for a track or an album. */
  bylineHref: string | null;
  cover: string | null;
  tracks: EmbedTrack[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/embed/{kind}/{id}` of this page, or null. */
export function itemOfPath(path: string): { kind: Kind; id: string } | null {
  const [, embed, kind, id, ...rest] = path.split("/");
  if (embed !== "embed" || !id || !UUID.test(id) || rest.length > 0) return null;
  return kind === "tracks" || kind === "albums" || kind === "playlists" ? { kind, id } : null;
}

type Artist = { id: string; username: string; displayName?: string | null };
const shown = (artist: Artist) => artist.displayName || artist.username;

/** GET of the public API with no cookie sent or kept. */
export async function read<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { credentials: "omit", signal: signal ?? null });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

const fromTrack = (t: components["schemas"]["Track"] | components["schemas"]["PlaylistTrack"]) => ({
  id: t.id,
  title: t.title,
  artist: shown(t.artist),
  artistId: t.artistId,
  cover: t.cover,
  duration: t.duration,
});

export async function loadItem(kind: Kind, id: string): Promise<EmbedItem> {
  if (kind === "tracks") {
    const t = await read<components["schemas"]["Track"]>(`/api/v1/tracks/${id}`);
    const track = fromTrack(t);
    return {
      kind,
      id,
      title: t.title,
      byline: track.artist,
      bylineHref: `/artists/${t.artistId}`,
      cover: t.cover ?? t.artist.avatar,
      tracks: [track],
    };
  }
  if (kind === "albums") {
    const a = await read<components["schemas"]["Album"]>(`/api/v1/albums/${id}`);
    return {
      kind,
      id,
      title: a.title,
      byline: shown(a.artist),
      bylineHref: `/artists/${a.artistId}`,
      cover: a.cover,
      tracks: a.tracks.map(fromTrack),
    };
  }
  const p = await read<components["schemas"]["PlaylistWithViewer"]>(`/api/v1/playlists/${id}`);
  const tracks = p.tracks.map(fromTrack);
  return {
    kind,
    id,
    title: p.title,
    byline: p.owner.displayName ?? null,
    bylineHref: null,
    cover: p.cover ?? tracks.find((t) => t.cover)?.cover ?? null,
    tracks,
  };
}
