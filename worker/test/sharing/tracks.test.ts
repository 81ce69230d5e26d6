import { env } from "cloudflare:workers";
import { trackKeys } from "@edge-music/contracts";
import { listeningHistory, trackLikes } from "@edge-music/db";
import { beforeAll, describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env.ts";
import { Client, type Registered, registerAccount } from "../support/auth.ts";
import { textOf } from "../support/body.ts";
import { insertTrack, insertUser, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

/** Issue 31's visibility of a track (ADR 0025) and its signed stream URLs (ADR 0026). */

const bucket = () => (env as Bindings).MEDIA as R2Bucket;
const json = async <T = Record<string, unknown>>(response: Response) =>
  (await response.json()) as T;
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

let owner: Registered;
beforeAll(async () => {
  owner = await registerAccount("artist");
});

/** A READY track of `owner` with the given visibility and media in storage. */
async function trackOf(visibility: "public" | "unlisted" | "private", title?: string) {
  const track = await insertTrack(owner.id, { visibility, ...(title ? { title } : {}) });
  const keys = trackKeys(track.id);
  const put = (key: string, body: string, contentType: string) =>
    bucket().put(key, body, { httpMetadata: { contentType } });
  await put(
    keys.master,
    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=140000\n128/index.m3u8\n",
    "application/vnd.apple.mpegurl",
  );
  await put(
    keys.playlist(128),
    '#EXTM3U\n#EXT-X-MAP:URI="init_0.mp4"\n#EXTINF:4.0,\nsegment_00000.m4s\n',
    "application/vnd.apple.mpegurl",
  );
  await put(keys.init(128), "init-bytes", "audio/mp4");
  await put(keys.segment(128, 0), "segment-zero", "audio/mp4");
  await put(keys.opus(128), "OggS-opus", "audio/ogg; codecs=opus");
  return track;
}

const keyOf = async (path: string) => {
  const response = await owner.client.get(path);
  expect(response.status).toBe(200);
  const { url } = await json<{ url: string }>(response);
  return new URL(url).searchParams.get("key") ?? "";
};

describe("an unlisted track", () => {
  it("is 404 without its key and answered with it, never from or into the edge cache", async () => {
    const track = await trackOf("unlisted");
    const path = `/api/v1/tracks/${track.id}`;
    await expectProblem(await new Client().get(path), 404, "NOT_FOUND");
    await expectProblem(await new Client().get(`${path}?key=wrong`), 404, "NOT_FOUND");
    const listener = await registerAccount("user");
    await expectProblem(await listener.client.get(path), 404, "NOT_FOUND");

    const key = await keyOf(`${path}/share-link`);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    for (let i = 0; i < 2; i++) {
      const response = await new Client().get(`${path}?key=${key}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-edge-cache")).toBe("bypass");
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      const body = await json(response);
      expect(body).toMatchObject({ id: track.id, visibility: "unlisted" });
      expect(body.stream).toMatchObject({
        master: expect.stringMatching(/\/hls\/master\.m3u8\?exp=\d+&sig=/),
      });
    }
    // The keyed answer was not stored for the plain URL either.
    await expectProblem(await new Client().get(path), 404, "NOT_FOUND");
  });

  it("is absent from lists, search, artist pages, feeds, likes and playlists", async () => {
    const title = `Hidden${crypto.randomUUID().slice(0, 8)}`;
    const shown = await trackOf("public", `${title} shown`);
    const unlisted = await trackOf("unlisted", `${title} unlisted`);
    const hidden = await trackOf("private", `${title} private`);
    const listener = await registerAccount("user");
    await listener.client.post(`/api/v1/artists/${owner.id}/follow`);
    // Liked while public, then made unlisted: the like is kept but not listed.
    const turned = await trackOf("public", `${title} turned`);
    expect((await listener.client.post(`/api/v1/tracks/${turned.id}/like`)).status).toBe(200);
    expect(
      (await owner.client.put(`/api/v1/tracks/${turned.id}`, { visibility: "private" })).status,
    ).toBe(200);
    const playlist = await json<{ id: string }>(
      await listener.client.post("/api/v1/playlists", { title: "Mine", isPublic: true }),
    );
    await withDb((db) =>
      db.execute(
        `insert into playlist_tracks (playlist_id, track_id, position) values ('${playlist.id}', '${shown.id}', 1), ('${playlist.id}', '${unlisted.id}', 2)`,
      ),
    );
    const listed = [shown.id];
    const hiddenIds = [unlisted.id, hidden.id, turned.id];
    const seen = async (
      path: string,
      pick = (body: unknown) => ids(body as Array<{ id: string }>),
    ) => {
      const response = await listener.client.get(path);
      expect(response.status, path).toBe(200);
      return pick(await response.json());
    };
    const expectOnlyListed = (found: string[]) => {
      expect(found).toEqual(expect.arrayContaining(listed));
      for (const id of hiddenIds) expect(found).not.toContain(id);
    };
    expectOnlyListed(await seen(`/api/v1/tracks?artistId=${owner.id}&limit=100`));
    expectOnlyListed(await seen(`/api/v1/artists/${owner.id}/tracks?limit=100`));
    expectOnlyListed(
      await seen(`/api/v1/search?q=${title}&types=tracks&limit=50`, (body) =>
        ids((body as { tracks: Array<{ id: string }> }).tracks),
      ),
    );
    expectOnlyListed(
      await seen("/api/v1/users/me/feed?limit=50", (body) =>
        (body as { items: Array<{ track?: { id: string } }> }).items.flatMap((item) =>
          item.track ? [item.track.id] : [],
        ),
      ),
    );
    expect(await seen("/api/v1/tracks/me/liked")).not.toContain(turned.id);
    expect(await seen("/api/v1/tracks/me/liked/ids", (body) => body as string[])).not.toContain(
      turned.id,
    );
    expect(
      await seen(`/api/v1/playlists/${playlist.id}`, (body) =>
        ids((body as { tracks: Array<{ id: string }> }).tracks),
      ),
    ).toEqual([shown.id]);
    // The owner's studio list has them all, with their visibility.
    const own = await json<Array<{ id: string; visibility: string }>>(
      await owner.client.get("/api/v1/artists/me/tracks?limit=100"),
    );
    expect(own.find((row) => row.id === unlisted.id)?.visibility).toBe("unlisted");
    expect(own.find((row) => row.id === hidden.id)?.visibility).toBe("private");
  });

  it("is absent from related tracks, and has none of its own", async () => {
    const seed = await trackOf("public");
    const unlisted = await trackOf("unlisted");
    const other = await trackOf("public");
    const users = await Promise.all([insertUser(), insertUser()]);
    await withDb((db) =>
      db.insert(listeningHistory).values(
        users.flatMap((user) =>
          [seed, unlisted, other].map((track) => ({
            id: crypto.randomUUID(),
            userId: user.id,
            trackId: track.id,
          })),
        ),
      ),
    );
    const related = await json<Array<{ id: string }>>(
      await new Client().get(`/api/v1/tracks/${seed.id}/related`),
    );
    expect(ids(related)).toEqual([other.id]);
    await expectProblem(
      await new Client().get(`/api/v1/tracks/${unlisted.id}/related`),
      404,
      "NOT_FOUND",
    );
  });

  it("cannot be liked or recorded in a history by id alone", async () => {
    const track = await trackOf("unlisted");
    const listener = await registerAccount("user");
    await expectProblem(
      await listener.client.post(`/api/v1/tracks/${track.id}/like`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await listener.client.post(`/api/v1/history/tracks/${track.id}`),
      404,
      "NOT_FOUND",
    );
    // The same listener records a public track's listen: the 404 above is the visibility's.
    const shown = await trackOf("public");
    expect((await listener.client.post(`/api/v1/history/tracks/${shown.id}`)).status).toBe(201);
    const likes = await withDb((db) => db.select().from(trackLikes));
    expect(likes.some((like) => like.trackId === track.id)).toBe(false);
  });
});

describe("a private track", () => {
  it("is the owner's alone: 404 to others, even with its key", async () => {
    const track = await trackOf("private");
    const path = `/api/v1/tracks/${track.id}`;
    const key = await keyOf(`${path}/share-link`);
    await expectProblem(await new Client().get(`${path}?key=${key}`), 404, "NOT_FOUND");
    const own = await owner.client.get(path);
    expect(await json(own)).toMatchObject({ id: track.id, visibility: "private" });
    // The owner streams it with the session cookie; nobody else does.
    const master = `/api/v1/tracks/stream/${track.id}/hls/master.m3u8`;
    const ownStream = await owner.client.get(master);
    expect(ownStream.status).toBe(200);
    expect(ownStream.headers.get("cache-control")).toBe("private, no-store");
    await expectProblem(await new Client().get(master), 404, "NOT_FOUND");
  });
});

describe("PUT /tracks/{id} visibility", () => {
  it("sets it, and refuses a value that is not one (400 problem)", async () => {
    const track = await trackOf("public");
    const path = `/api/v1/tracks/${track.id}`;
    await expectProblem(
      await owner.client.put(path, { visibility: "hidden" }),
      400,
      "VALIDATION_FAILED",
    );
    const form = new FormData();
    form.append("visibility", "secret");
    await expectProblem(await owner.client.form("PUT", path, form), 400, "VALIDATION_FAILED");
    const updated = await owner.client.put(path, { visibility: "unlisted" });
    expect(await json(updated)).toMatchObject({ visibility: "unlisted" });
    await expectProblem(await new Client().get(path), 404, "NOT_FOUND");
    const back = new FormData();
    back.append("visibility", "public");
    expect(await json(await owner.client.form("PUT", path, back))).toMatchObject({
      visibility: "public",
    });
  });
});

describe("share links", () => {
  it("are the owner's only: another artist 404, a listener 403, a stranger 401", async () => {
    const track = await trackOf("unlisted");
    const path = `/api/v1/tracks/${track.id}/share-link`;
    const other = await registerAccount("artist");
    await expectProblem(await other.client.get(path), 404, "NOT_FOUND");
    await expectProblem(await other.client.post(path), 404, "NOT_FOUND");
    const listener = await registerAccount("user");
    expect((await listener.client.get(path)).status).toBe(403);
    expect((await new Client().get(path)).status).toBe(401);
    const response = await owner.client.get(path);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const { url } = await json<{ url: string }>(response);
    expect(url).toMatch(
      new RegExp(`^http://localhost:5173/tracks/${track.id}\\?key=[0-9a-f]{32}$`),
    );
  });

  it("rotation ends the old link and the URLs signed under it", async () => {
    const track = await trackOf("unlisted");
    const path = `/api/v1/tracks/${track.id}`;
    const oldKey = await keyOf(`${path}/share-link`);
    const read = await json<{ stream: { master: string } }>(
      await new Client().get(`${path}?key=${oldKey}`),
    );
    expect((await new Client().get(read.stream.master)).status).toBe(200);

    const rotated = await owner.client.post(`${path}/share-link`);
    expect(rotated.status).toBe(200);
    const newKey = new URL((await json<{ url: string }>(rotated)).url).searchParams.get("key");
    expect(newKey).not.toBe(oldKey);
    expect(await keyOf(`${path}/share-link`)).toBe(newKey);
    await expectProblem(await new Client().get(`${path}?key=${oldKey}`), 404, "NOT_FOUND");
    await expectProblem(await new Client().get(read.stream.master), 404, "NOT_FOUND");
    expect((await new Client().get(`${path}?key=${newKey}`)).status).toBe(200);
  });
});

describe("streaming an unlisted track", () => {
  it("needs a signature; signed playlists sign their files; nothing signed is cached", async () => {
    const track = await trackOf("unlisted");
    const base = `/api/v1/tracks/stream/${track.id}`;
    for (const file of [
      "hls/master.m3u8",
      "hls/128/index.m3u8",
      "hls/128/segment_00000.m4s",
      "audio/128.opus",
    ]) {
      await expectProblem(await new Client().get(`${base}/${file}`), 404, "NOT_FOUND");
    }
    const key = await keyOf(`/api/v1/tracks/${track.id}/share-link`);
    const { stream } = await json<{ stream: { master: string; query: string } }>(
      await new Client().get(`/api/v1/tracks/${track.id}?key=${key}`),
    );
    const master = await new Client().get(stream.master);
    expect(master.status).toBe(200);
    expect(master.headers.get("cache-control")).toBe("private, no-store");
    expect(master.headers.get("x-edge-cache")).toBe("bypass");
    expect(await textOf(master)).toContain(`128/index.m3u8?${stream.query}`);
    const media = await textOf(
      await new Client().get(`${base}/hls/128/index.m3u8?${stream.query}`),
    );
    expect(media).toContain(`URI="init_0.mp4?${stream.query}"`);
    expect(media).toContain(`segment_00000.m4s?${stream.query}`);
    for (const file of ["hls/128/init_0.mp4", "hls/128/segment_00000.m4s", "audio/128.opus"]) {
      const response = await new Client().get(`${base}/${file}?${stream.query}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("cache-control"), file).toBe("private, no-store");
      expect(response.headers.get("x-edge-cache"), file).toBe("bypass");
    }
    // The signed answers were not stored: the unsigned URLs are still 404.
    await expectProblem(
      await new Client().get(`${base}/hls/128/segment_00000.m4s`),
      404,
      "NOT_FOUND",
    );
    // An altered, a foreign or an expired signature is 404.
    const [exp, sig] = stream.query.split("&").map((part) => part.split("=")[1] ?? "");
    const segment = `${base}/hls/128/segment_00000.m4s`;
    const bad = [
      `exp=${Number(exp) + 900}&sig=${sig}`,
      `exp=${exp}&sig=${sig?.slice(1)}A`,
      `exp=1000&sig=${sig}`,
      "exp=x&sig=y",
    ];
    for (const query of bad) {
      await expectProblem(await new Client().get(`${segment}?${query}`), 404, "NOT_FOUND");
    }
    const other = await trackOf("unlisted");
    await expectProblem(
      await new Client().get(
        `/api/v1/tracks/stream/${other.id}/hls/128/segment_00000.m4s?${stream.query}`,
      ),
      404,
      "NOT_FOUND",
    );
  });

  it("made unlisted, a public track's anonymous copies stop at the JSON and playlist bounds", async () => {
    // A public track's master is stored at the edge; the signed URL of the same track is another
    // key, and an unsigned request never gets a signed answer (above). Here: the track read.
    const track = await trackOf("public");
    const path = `/api/v1/tracks/${track.id}`;
    expect((await new Client().get(path)).headers.get("x-edge-cache")).toBe("miss");
    await owner.client.put(path, { visibility: "unlisted" });
    // A keyed request bypasses the edge: it never sees the stored public copy's headers.
    const key = await keyOf(`${path}/share-link`);
    const keyed = await new Client().get(`${path}?key=${key}`);
    expect(keyed.headers.get("x-edge-cache")).toBe("bypass");
    expect(await json(keyed)).toMatchObject({ visibility: "unlisted" });
  });
});
