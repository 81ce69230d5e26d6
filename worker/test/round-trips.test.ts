import { describe, expect, it } from "vitest";
import { app, type Client, registerAccount, uniqueIp } from "./support/auth.ts";
import { send } from "./support/env.ts";
import { insertTrack } from "./support/factories.ts";
import { countingEnv, tripsSoFar } from "./support/round-trips.ts";

/**
 * Round trips between the Worker and Postgres per request, counted by a bridge of this suite's
 * own (one HTTP query is one; a new WebSocket three, then one per answered message). The
 * session check rides on the first round trip, so it costs nothing of its own.
 */
const env = countingEnv;

/** Sends one request through the counting bridge; answers its status and its round trips. */
async function measure(
  client: Client | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; trips: number }> {
  const before = await tripsSoFar();
  const cookie = client?.jar.header(new URL(path, "http://localhost").pathname);
  const response = await send(
    app,
    path,
    {
      method,
      headers: {
        "cf-connecting-ip": client?.ip ?? uniqueIp(),
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    },
    env,
  );
  client?.jar.take(response);
  await response.arrayBuffer();
  return { status: response.status, trips: (await tripsSoFar()) - before };
}

describe("database round trips per request", () => {
  it("signed-in reads and writes: one each, the session check included", async () => {
    const artist = await registerAccount("artist");
    const track = await insertTrack(artist.id);
    const user = await registerAccount("user");
    const created = await user.client.post("/api/v1/playlists", { title: "Trips", isPublic: true });
    const { id } = (await created.json()) as { id: string };

    const cases: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/users/me"],
      ["GET", "/api/v1/history"],
      ["GET", "/api/v1/playlists/me"],
      ["GET", `/api/v1/playlists/${id}`],
      // With the listener's own relation (`viewer`), read by the same statement.
      ["GET", `/api/v1/artists/${artist.id}`],
      ["GET", `/api/v1/artists/by-username/${artist.username}`],
      ["POST", `/api/v1/playlists/${id}/like`],
      ["DELETE", `/api/v1/playlists/${id}/like`],
      ["POST", `/api/v1/playlists/${id}/tracks`, { trackIds: [track.id] }],
      ["DELETE", `/api/v1/playlists/${id}/tracks/${track.id}`],
    ];
    const results = [];
    for (const [method, path, body] of cases) {
      const { status, trips } = await measure(user.client, method, path, body);
      results.push({ method, path, ok: status < 300, trips });
    }
    expect(results).toEqual(cases.map(([method, path]) => ({ method, path, ok: true, trips: 1 })));
  });

  it("anonymous reads: one on a miss, none on an edge-cache hit", async () => {
    const user = await registerAccount("user");
    const created = await user.client.post("/api/v1/playlists", { title: "Open", isPublic: true });
    const { id } = (await created.json()) as { id: string };
    // Pages and a query no other test asks for, so that the first read is a miss.
    const page = 1000 + Math.floor(Math.random() * 1_000_000);
    const paths = [
      `/api/v1/playlists/${id}`,
      `/api/v1/artists?page=${page}`,
      `/api/v1/tracks?page=${page}`,
      `/api/v1/search?q=open${page}`,
    ];
    const results = [];
    for (const path of paths) results.push({ path, ...(await measure(null, "GET", path)) });
    for (const path of paths) results.push({ path, ...(await measure(null, "GET", path)) });
    expect(results).toEqual(
      [1, 0].flatMap((trips) => paths.map((path) => ({ path, status: 200, trips }))),
    );
  });

  it("refresh: one; login: two (the password hash runs in between)", async () => {
    const user = await registerAccount("user");
    const refresh = await measure(user.client, "POST", "/api/v1/users/auth/refresh");
    expect(refresh).toEqual({ status: 200, trips: 1 });
    const login = await measure(null, "POST", "/api/v1/users/auth/login", {
      email: user.email,
      password: user.password,
    });
    expect(login).toEqual({ status: 200, trips: 2 });
  });

  it("a revoked session costs its one round trip and answers 401", async () => {
    const user = await registerAccount("user");
    const other = await registerAccount("user");
    // Signing out ends the session; the access cookie of it is kept for the next request.
    const cookie = user.client.jar.header("/api/v1/users/me");
    await user.client.post("/api/v1/users/auth/logout");
    expect(cookie).toBeTruthy();
    const before = await tripsSoFar();
    const answer = await send(
      app,
      "/api/v1/users/me",
      { headers: { cookie: cookie ?? "", "cf-connecting-ip": other.client.ip } },
      env,
    );
    await answer.arrayBuffer();
    expect({ status: answer.status, trips: (await tripsSoFar()) - before }).toEqual({
      status: 401,
      trips: 1,
    });
  });
});
