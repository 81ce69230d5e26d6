import { artists } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Client } from "../../support/auth.ts";
import { insertArtist, withDb } from "../../support/factories.ts";

export const ARTISTS = "/api/v1/artists";

export interface FollowState {
  id: string;
  username: string;
  avatar: string | null;
  _count: { followers: number };
}
export interface LikeState {
  liked: boolean;
  _count: { likes: number };
}

/** An artist with every profile field set, so that DTOs can be compared whole. */
export async function profiledArtist() {
  const artist = await insertArtist({ bio: "Synthwave from Lisbon." });
  const media = {
    avatar: `/static/avatars/${artist.id}.png`,
    backgroundImage: `/static/backgrounds/${artist.id}.webp`,
  };
  await withDb((db) => db.update(artists).set(media).where(eq(artists.id, artist.id)));
  return { ...artist, ...media };
}

export async function call<T>(client: Client, method: string, path: string, status = 200) {
  const response = await client.request(method, `${ARTISTS}${path}`);
  expect(response.status, `${method} ${path}`).toBe(status);
  return (await response.json()) as T;
}

export const follow = (client: Client, artistId: string) =>
  call<FollowState>(client, "POST", `/${artistId}/follow`);
export const unfollow = (client: Client, artistId: string) =>
  call<FollowState>(client, "DELETE", `/${artistId}/follow`);
export const like = (client: Client, artistId: string) =>
  call<LikeState>(client, "POST", `/${artistId}/like`);
export const unlike = (client: Client, artistId: string) =>
  call<LikeState>(client, "DELETE", `/${artistId}/like`);
