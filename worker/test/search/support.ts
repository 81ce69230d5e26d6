import { follows, playlistLikes, playlists } from "@edge-music/db";
import { expect } from "vitest";
import type { SearchType } from "../../src/features/search/schema.ts";
import { app } from "../support/auth.ts";
import { send } from "../support/env.ts";
import { insertUser, withDb } from "../support/factories.ts";

export const SEARCH = "/api/v1/search";
export const TYPES = ["tracks", "artists", "albums", "playlists"] as const satisfies SearchType[];

export interface Item {
  id: string;
  rank: number;
  [field: string]: unknown;
}
export type Results = Partial<Record<SearchType, Item[]>>;

/**
 * A word no other row has: 12 lower-case letters (no digits, so full text and trigrams both see
 * one plain word). Tests put it in titles to find exactly their own rows.
 */
export function marker(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `zq${[...bytes].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;
}

type Params = Record<string, string | number | Array<string | number>>;

/** The search URL; array values repeat the parameter. */
export function searchUrl(params: Params): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  return `${SEARCH}?${query}`;
}

export const searchRaw = (pathAndQuery: string) => send(app, pathAndQuery);
export const search = (params: Params) => searchRaw(searchUrl(params));

/** A successful search's body. */
export async function results(params: Params): Promise<Results> {
  const response = await search(params);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Results;
}

/** One type's items, searched with a limit that leaves room for rows of other suites. */
export async function found(type: SearchType, q: string, limit = 50): Promise<Item[]> {
  const body = await results({ q, "types[]": type, limit });
  return body[type] ?? [];
}

/** The ids among `items` that are in `ours`, in the response's order. */
export const oursIn = (items: Item[], ours: Array<{ id: string }>) =>
  items.map((item) => item.id).filter((id) => ours.some((row) => row.id === id));

export async function insertPlaylist(values: {
  title: string;
  isPublic?: boolean;
  description?: string;
  cover?: string | null;
  createdAt?: Date;
}) {
  const owner = await insertUser();
  return await withDb(async (db) => {
    const isPublic = values.isPublic ?? true;
    const [row] = await db
      .insert(playlists)
      .values({
        userId: owner.id,
        ...values,
        isPublic,
        visibility: isPublic ? "public" : "private",
      })
      .returning();
    if (!row) throw new Error("no playlist row");
    return row;
  });
}

/** `count` new users following the artist. */
export async function addFollowers(artistId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const user = await insertUser();
    await withDb((db) => db.insert(follows).values({ userId: user.id, artistId }));
  }
}

/** `count` new users liking the playlist. */
export async function addLikes(playlistId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const user = await insertUser();
    await withDb((db) => db.insert(playlistLikes).values({ userId: user.id, playlistId }));
  }
}
