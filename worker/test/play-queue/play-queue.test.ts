import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

const QUEUE = "/api/v1/users/me/play-queue";

interface Queue {
  tracks: { id: string; artist: { id: string } }[];
  current: string | null;
  position: number;
  changedAt: string | null;
  changedBy: string;
}

async function read(client: Client): Promise<Queue> {
  const response = await client.get(QUEUE);
  expect(response.status).toBe(200);
  return (await response.json()) as Queue;
}

describe("the saved play queue", () => {
  it("is empty until saved, then follows the listener to another session", async () => {
    const listener = await registerAccount("user");
    expect(await read(listener.client)).toEqual({
      tracks: [],
      current: null,
      position: 0,
      changedAt: null,
      changedBy: "",
    });
    const artist = await insertArtist();
    const [a, b] = await Promise.all([insertTrack(artist.id), insertTrack(artist.id)]);
    const ids = [a.id, b.id, a.id];
    const saved = await listener.client.put(QUEUE, {
      trackIds: ids,
      current: b.id,
      position: 42.5,
      client: "web",
    });
    expect(saved.status).toBe(204);
    // Another device: a new sign-in of the same account.
    const other = new Client();
    const login = await other.post("/api/v1/users/auth/login", {
      email: listener.email,
      password: listener.password,
    });
    expect(login.status).toBe(200);
    const queue = await read(other);
    expect(queue.tracks.map((t) => t.id)).toEqual(ids);
    expect(queue.tracks[0]?.artist.id).toBe(artist.id);
    expect(queue).toMatchObject({ current: b.id, position: 42.5, changedBy: "web" });
    expect(Date.parse(queue.changedAt ?? "")).toBeGreaterThan(0);
  });

  it("leaves out tracks that cannot be played any more, and a current one among them", async () => {
    const { client } = await registerAccount("user");
    const artist = await insertArtist();
    const [kept, reconverting] = await Promise.all([
      insertTrack(artist.id),
      insertTrack(artist.id),
    ]);
    const gone = crypto.randomUUID();
    const put = await client.put(QUEUE, {
      trackIds: [kept.id, gone, reconverting.id],
      current: reconverting.id,
      position: 10,
    });
    expect(put.status).toBe(204);
    await withDb((db) =>
      db
        .update(tracks)
        .set({ processingStatus: "PROCESSING" })
        .where(eq(tracks.id, reconverting.id)),
    );
    const queue = await read(client);
    expect(queue.tracks.map((t) => t.id)).toEqual([kept.id]);
    expect(queue).toMatchObject({ current: null, position: 0 });
  });

  it("an empty list clears it", async () => {
    const { client } = await registerAccount("user");
    const track = await insertTrack((await insertArtist()).id);
    await client.put(QUEUE, { trackIds: [track.id], current: track.id, position: 3 });
    expect((await client.put(QUEUE, { trackIds: [] })).status).toBe(204);
    expect(await read(client)).toMatchObject({ tracks: [], current: null, position: 0 });
  });

  it("refuses what it cannot keep with 400", async () => {
    const { client } = await registerAccount("user");
    const id = crypto.randomUUID();
    const bad = [
      {},
      { trackIds: ["x"] },
      { trackIds: Array.from({ length: 1001 }, () => id) },
      { trackIds: [id], current: crypto.randomUUID() },
      { trackIds: [], current: id },
      { trackIds: [id], current: id, position: -1 },
      { trackIds: [id], current: id, position: 86_401 },
      { trackIds: [id], client: "x".repeat(65) },
    ];
    for (const body of bad) {
      await expectProblem(await client.put(QUEUE, body), 400, "VALIDATION_FAILED");
    }
    expect((await read(client)).changedAt).toBeNull();
  });

  it("is a listener's: 401 signed out, 403 for an artist", async () => {
    await expectProblem(await new Client().get(QUEUE), 401, "UNAUTHORIZED");
    const artist = await registerAccount("artist");
    await expectProblem(await artist.client.put(QUEUE, { trackIds: [] }), 403, "FORBIDDEN");
  });
});
