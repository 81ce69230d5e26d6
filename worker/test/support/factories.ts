import {
  albums,
  artists,
  createDb,
  createHttpDb,
  type Database,
  type HttpDatabase,
  type NewTrack,
  tracks,
  users,
} from "@edge-music/db";
import { inject } from "vitest";
import { uniqueEmail, uniqueName } from "./auth.ts";

/**
 * Rows made or read straight in the test database, for what has no API yet or would be slow
 * through it (tracks before the upload pipeline, many rows). Each statement is one request to the
 * bridge's HTTP SQL endpoint, as the Worker's own are: no connection to open or close around it.
 */
export async function withDb<T>(fn: (db: HttpDatabase) => Promise<T>): Promise<T> {
  return await fn(httpDb());
}

/**
 * The test database over a WebSocket connection of its own, closed after `fn`: for what needs
 * an interactive transaction (`db.transaction(async (tx) => …)`), which the HTTP path has not.
 */
export async function withConnection<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const handle = createDb(inject("appPooledDatabaseUrl"), {
    wsProxy: inject("infra").neonWsProxy,
  });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

/** The test database over the bridge's HTTP SQL endpoint, as the Worker's `deps.db`. */
export const httpDb = (): HttpDatabase =>
  createHttpDb(inject("appPooledDatabaseUrl"), { httpEndpoint: inject("infra").neonHttpEndpoint });

export async function insertArtist(values: { username?: string; bio?: string } = {}) {
  const [row] = await httpDb()
    .insert(artists)
    .values({
      username: values.username ?? uniqueName("a"),
      email: uniqueEmail(),
      bio: values.bio ?? "",
    })
    .returning();
  if (!row) throw new Error("no artist row");
  return row;
}

export async function insertUser() {
  const [row] = await httpDb()
    .insert(users)
    .values({ username: uniqueName(), email: uniqueEmail() })
    .returning();
  if (!row) throw new Error("no user row");
  return row;
}

/** A track, READY with a duration unless told otherwise. */
export async function insertTrack(artistId: string, values: Partial<NewTrack> = {}) {
  const [row] = await httpDb()
    .insert(tracks)
    .values({
      artistId,
      title: values.title ?? `Track ${uniqueName("t")}`,
      processingStatus: "READY",
      duration: 215.5,
      ...values,
    })
    .returning();
  if (!row) throw new Error("no track row");
  return row;
}

export async function insertAlbum(artistId: string, title = `Album ${uniqueName("al")}`) {
  const [row] = await httpDb().insert(albums).values({ artistId, title }).returning();
  if (!row) throw new Error("no album row");
  return row;
}

/** Bytes that start like a real image of each kind (enough for content sniffing). */
export const IMAGE_BYTES = {
  png: new Uint8Array([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82,
  ]),
  jpg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]),
  webp: new Uint8Array([
    0x52, 0x49, 0x46, 0x46, 24, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 86, 80, 56, 32,
  ]),
};
