import { expect } from "vitest";
import type { Client } from "../support/auth.ts";
import { insertArtist, insertTrack } from "../support/factories.ts";

export const BASE = "/api/v1/playlists";

export interface PlaylistTrack {
  id: string;
  title: string;
  cover: string | null;
  duration: number | null;
  artistId: string;
  artist: { id: string; username: string; avatar: string | null };
  addedAt: string;
}

export interface Playlist {
  id: string;
  title: string;
  description: string;
  cover: string | null;
  isPublic: boolean;
  userId: string;
  createdAt: string;
  updatedAt: string;
  tracks: PlaylistTrack[];
  _count: { tracks: number; likes: number };
}

export type PlaylistSummary = Omit<Playlist, "tracks">;

/** The playlist's track ids, in its order. */
export const idsOf = (playlist: Playlist) => playlist.tracks.map((t) => t.id);

export interface OwnPlaylist {
  id: string;
  title: string;
  cover: string | null;
  isPublic: boolean;
  updatedAt: string;
  tracks: Array<{ id: string; title: string; cover: string | null }>;
  _count: { tracks: number };
}

/** Reads a JSON answer after checking its status (the body is in the failure message). */
export async function expectJson<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** A playlist of the client's account, made through the API. */
export async function createPlaylist(
  client: Client,
  body: { title?: string; description?: string; isPublic?: boolean } = {},
): Promise<Playlist> {
  const response = await client.post(BASE, { title: `Mix ${crypto.randomUUID()}`, ...body });
  return await expectJson<Playlist>(response, 201);
}

/** `count` READY tracks of a new artist. */
export async function readyTracks(count: number) {
  const artist = await insertArtist();
  const tracks = [];
  for (let i = 0; i < count; i++) tracks.push(await insertTrack(artist.id, { title: `T${i}` }));
  return tracks;
}

export async function addTracks(client: Client, playlistId: string, trackIds: string[]) {
  return await client.post(`${BASE}/${playlistId}/tracks`, { trackIds });
}

/** A form of text fields and files: `[bytes, file name]` makes a file part. */
export function form(fields: Record<string, string | [Uint8Array<ArrayBuffer>, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") data.append(name, value);
    else data.append(name, new File([value[0]], value[1]));
  }
  return data;
}
