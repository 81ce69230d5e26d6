import { artists, listeningHistory } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Client } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";

export const HISTORY = "/api/v1/history";

export interface Entry {
  id: string;
  userId: string;
  trackId: string;
  listenedAt: string;
  track: {
    id: string;
    title: string;
    cover: string | null;
    duration: number | null;
    artistId: string;
    artist: { id: string; username: string; avatar: string | null };
  };
}

/** An artist with an avatar and `count` READY tracks of theirs. */
export async function artistWithTracks(count: number) {
  const artist = await insertArtist();
  const avatar = `/static/avatars/${artist.id}.png`;
  await withDb((db) => db.update(artists).set({ avatar }).where(eq(artists.id, artist.id)));
  const tracks = [];
  for (let i = 0; i < count; i++) tracks.push(await insertTrack(artist.id, { cover: null }));
  return { artist: { ...artist, avatar }, tracks };
}

export async function listen(client: Client, trackId: string) {
  const response = await client.post(`${HISTORY}/tracks/${trackId}`);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; listenedAt: string };
}

export async function historyOf(client: Client, query = "") {
  const response = await client.get(`${HISTORY}${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Entry[];
}

/** Every entry of a user, straight from the table. */
export const rowsOf = (userId: string) =>
  withDb((db) => db.select().from(listeningHistory).where(eq(listeningHistory.userId, userId)));
