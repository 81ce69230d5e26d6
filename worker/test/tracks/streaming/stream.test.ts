import { env } from "cloudflare:workers";
import { trackKeys } from "@edge-music/contracts";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env.ts";
import { app, Client, registerAccount } from "../../support/auth.ts";
import { textOf } from "../../support/body.ts";
import { CLOSED_PORT, send, testBindings } from "../../support/env.ts";
import { insertArtist, insertTrack, withDb } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { countingEnv, tripsSoFar } from "../../support/round-trips.ts";

const bucket = () => (env as Bindings).MEDIA as R2Bucket;
const base = (id: string) => `/api/v1/tracks/stream/${id}`;
const OPUS = "OggS-0123456789-abcdefghij";
let trackId = "";

beforeAll(async () => {
  const artist = await insertArtist();
  trackId = (await insertTrack(artist.id)).id;
  const keys = trackKeys(trackId);
  const put = (key: string, body: string, contentType: string) =>
    bucket().put(key, body, { httpMetadata: { contentType } });
  await put(
    keys.master,
    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=140000\n128/index.m3u8\n",
    "application/vnd.apple.mpegurl",
  );
  await put(
    keys.playlist(128),
    "#EXTM3U\n#EXTINF:4.0,\nsegment_00000.m4s\n",
    "application/vnd.apple.mpegurl",
  );
  await put(keys.init(128), "init-bytes", "audio/mp4");
  await put(keys.segment(128, 0), "segment-zero", "audio/mp4");
  await put(keys.segment(128, 1), "segment-one", "audio/mp4");
  await put(keys.opus(128), OPUS, "audio/ogg; codecs=opus");
  await put(keys.aac(128), "ftyp-moov-mdat", "audio/mp4");
});

const get = (path: string, headers: Record<string, string> = {}) => new Client().get(path, headers);

describe("HLS and audio of a READY track", () => {
  it("serves the master and media playlists with their type and a short cache", async () => {
    const master = await get(`${base(trackId)}/hls/master.m3u8`);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    expect(master.headers.get("cache-control")).toBe("public, max-age=60");
    expect(await textOf(master)).toContain("128/index.m3u8");
    const media = await get(`${base(trackId)}/hls/128/index.m3u8`);
    expect(await textOf(media)).toContain("segment_00000.m4s");
  });

  it("serves init and media segments as immutable, from the edge cache once cached", async () => {
    const init = await get(`${base(trackId)}/hls/128/init_0.mp4`);
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("audio/mp4");
    expect(init.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const path = `${base(trackId)}/hls/128/segment_00001.m4s`;
    const first = await get(path);
    expect(first.headers.get("x-edge-cache")).toBe("miss");
    expect(await textOf(first)).toBe("segment-one");
    // Gone from storage, still served by the edge cache.
    await bucket().delete(trackKeys(trackId).segment(128, 1));
    const second = await get(path);
    expect(second.headers.get("x-edge-cache")).toBe("hit");
    expect(await textOf(second)).toBe("segment-one");
    // Media are the same for everyone: a signed-in listener is answered from the edge too.
    const listener = await registerAccount("user");
    const signedIn = await listener.client.get(path);
    expect(signedIn.headers.get("x-edge-cache")).toBe("hit");
    expect(await textOf(signedIn)).toBe("segment-one");
    // A range of a stored segment comes from the stored copy.
    const part = await get(path, { range: "bytes=0-6" });
    expect([part.status, part.headers.get("x-edge-cache"), await textOf(part)]).toEqual([
      206,
      "hit",
      "segment",
    ]);
  });

  it("answers If-None-Match with 304", async () => {
    const path = `${base(trackId)}/hls/master.m3u8`;
    const etag = (await get(path)).headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    expect((await get(path, { "if-none-match": etag })).status).toBe(304);
  });

  it("serves byte ranges of the Opus file (206) and refuses ranges outside it (416)", async () => {
    const path = `${base(trackId)}/audio/128.opus`;
    const whole = await get(path);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    expect(await textOf(whole)).toBe(OPUS);
    const head = await get(path, { range: "bytes=0-3" });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-range")).toBe(`bytes 0-3/${OPUS.length}`);
    expect(await textOf(head)).toBe("OggS");
    const tail = await get(`${base(trackId)}/audio/128k.opus`, { range: "bytes=-5" });
    expect(await textOf(tail)).toBe("fghij");
    const outside = await get(path, { range: "bytes=999-" });
    await expectProblem(outside, 416, "RANGE_NOT_SATISFIABLE");
    expect(outside.headers.get("content-range")).toBe(`bytes */${OPUS.length}`);
  });

  it("serves the whole AAC file (M4A) of a rung, with ranges", async () => {
    for (const name of ["128.m4a", "128k.m4a"]) {
      const whole = await get(`${base(trackId)}/audio/${name}`);
      expect(whole.status, name).toBe(200);
      expect(whole.headers.get("content-type")).toBe("audio/mp4");
      expect(await textOf(whole)).toBe("ftyp-moov-mdat");
    }
    const part = await get(`${base(trackId)}/audio/128.m4a`, { range: "bytes=5-8" });
    expect(part.status).toBe(206);
    expect(await textOf(part)).toBe("moov");
    await expectProblem(await get(`${base(trackId)}/audio/192.m4a`), 404, "NOT_FOUND");
    await expectProblem(await get(`${base(trackId)}/audio/128.mp4`), 400, "VALIDATION_FAILED");
  });

  it("matches If-None-Match as a list of tags, weak or strong, and *", async () => {
    const path = `${base(trackId)}/hls/128/index.m3u8`;
    const etag = (await get(path)).headers.get("etag") ?? "";
    const opaque = etag.replace(/^W\//, "");
    for (const header of [`"other", ${etag}`, `W/${opaque}`, opaque, "*"]) {
      expect((await get(path, { "if-none-match": header })).status, header).toBe(304);
    }
    expect((await get(path, { "if-none-match": '"other", W/"another"' })).status).toBe(200);
  });

  it("matches the track id in any case", async () => {
    const upper = await get(`${base(trackId.toUpperCase())}/hls/master.m3u8`);
    expect(upper.status).toBe(200);
    expect(await textOf(upper)).toContain("128/index.m3u8");
  });

  it("never keeps a whole Opus file at the edge, and never a HEAD's answer", async () => {
    const opus = `${base(trackId)}/audio/128.opus`;
    for (let i = 0; i < 2; i++) {
      const answer = await get(opus);
      expect(answer.headers.get("x-edge-cache")).toBe("bypass");
      expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(await textOf(answer)).toBe(OPUS);
    }
    const segment = `${base(trackId)}/hls/128/segment_00000.m4s`;
    const head = await new Client().request("HEAD", segment);
    expect(head.status).toBe(200);
    const after = await get(segment);
    expect(after.headers.get("x-edge-cache")).toBe("miss");
    expect(await textOf(after)).toBe("segment-zero");
  });

  it("answers 503 when the media store cannot be reached", async () => {
    const response = await send(
      app,
      `${base(trackId)}/hls/128/segment_00007.m4s`,
      { headers: { "cf-connecting-ip": "10.9.9.9" } },
      {
        ...testBindings(),
        STORAGE_DRIVER: "s3",
        S3_ENDPOINT: `http://127.0.0.1:${CLOSED_PORT}`,
        S3_BUCKET: "media",
        S3_ACCESS_KEY_ID: "key",
        S3_SECRET_ACCESS_KEY: "secret",
      },
    );
    await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
  });

  it("lets players on any origin read it", async () => {
    const response = await get(`${base(trackId)}/hls/master.m3u8`, {
      origin: "https://player.example",
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("content-range");
  });
});

describe("what does not stream", () => {
  it("answers 404 TRACK_NOT_READY for a track still converting, 404 for an unknown one", async () => {
    const artist = await insertArtist();
    const processing = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
    const body = await expectProblem(
      await get(`${base(processing.id)}/hls/master.m3u8`),
      404,
      "TRACK_NOT_READY",
    );
    expect(body.processingStatus).toBe("PROCESSING");
    await expectProblem(
      await get(`${base(crypto.randomUUID())}/hls/master.m3u8`),
      404,
      "NOT_FOUND",
    );
  });

  it("answers 404 for a quality that was not produced", async () => {
    await expectProblem(await get(`${base(trackId)}/hls/320/index.m3u8`), 404, "NOT_FOUND");
    await expectProblem(await get(`${base(trackId)}/audio/192.opus`), 404, "NOT_FOUND");
    // A low variant's name is a valid one (a source below 128 kbps gets it), not produced here.
    await expectProblem(await get(`${base(trackId)}/audio/64k.opus`), 404, "NOT_FOUND");
    await expectProblem(await get(`${base(trackId)}/hls/96/index.m3u8`), 404, "NOT_FOUND");
  });

  it.each([
    ["a bitrate off the ladder", "/hls/256/index.m3u8"],
    ["a segment index without 5 digits", "/hls/128/segment_1.m4s"],
    ["another file name", "/hls/128/master.m3u8"],
    ["an encoded traversal", "/hls/128/..%2F..%2Fsource.mp3"],
    ["an opus name of no variant", "/audio/80.opus"],
  ])("answers 400 for %s", async (_name, suffix) => {
    await expectProblem(await get(`${base(trackId)}${suffix}`), 400, "VALIDATION_FAILED");
  });

  it("answers 400 for an id that is not a UUID", async () => {
    await expectProblem(
      await get("/api/v1/tracks/stream/abc/hls/master.m3u8"),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("a track that is not READY, to its owner", () => {
  /** An artist's track still converting, with what the conversion has written so far. */
  async function unfinished(processingStatus: "PROCESSING" | "FAILED" = "PROCESSING") {
    const owner = await registerAccount("artist");
    const track = await insertTrack(owner.id, { processingStatus });
    const keys = trackKeys(track.id);
    await bucket().put(keys.master, "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n128/index.m3u8\n", {
      httpMetadata: { contentType: "application/vnd.apple.mpegurl" },
    });
    await bucket().put(keys.segment(128, 0), "segment-zero", {
      httpMetadata: { contentType: "audio/mp4" },
    });
    await bucket().put(keys.opus(128), OPUS, {
      httpMetadata: { contentType: "audio/ogg; codecs=opus" },
    });
    return { owner, id: track.id };
  }

  const expectPrivate = (response: Response) => {
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-edge-cache")).toBe("bypass");
  };

  it("streams to its owner, privately, and never from or into the edge cache", async () => {
    const { owner, id } = await unfinished();
    for (const path of [
      `${base(id)}/hls/master.m3u8`,
      `${base(id)}/hls/128/segment_00000.m4s`,
      `${base(id)}/audio/128.opus`,
    ]) {
      const first = await owner.client.get(path);
      expect(first.status, path).toBe(200);
      expectPrivate(first);
      await first.arrayBuffer();
      // Not stored: the owner's next request runs again, anyone else still gets 404.
      const again = await owner.client.get(path);
      expect(again.status, path).toBe(200);
      expectPrivate(again);
      await again.arrayBuffer();
      await expectProblem(await get(path), 404, "TRACK_NOT_READY");
    }
    const master = await owner.client.get(`${base(id)}/hls/master.m3u8`);
    expect(await textOf(master)).toContain("128/index.m3u8");
  });

  it("answers the owner's ranges and If-None-Match privately too; a file not written is 404", async () => {
    const { owner, id } = await unfinished("FAILED");
    const path = `${base(id)}/audio/128.opus`;
    const part = await owner.client.get(path, { range: "bytes=-5" });
    expect([part.status, part.headers.get("content-range"), await textOf(part)]).toEqual([
      206,
      `bytes 21-25/${OPUS.length}`,
      "fghij",
    ]);
    expectPrivate(part);
    const etag = (await owner.client.get(path)).headers.get("etag") ?? "";
    const unchanged = await owner.client.get(path, { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expectPrivate(unchanged);
    const missing = await owner.client.get(`${base(id)}/hls/128/index.m3u8`);
    const body = await expectProblem(missing, 404, "NOT_FOUND");
    expect(body.detail).toBe("This rendition does not exist.");
  });

  it("answers 404 TRACK_NOT_READY to anyone else: anonymous, another artist, a listener", async () => {
    const { id } = await unfinished();
    const path = `${base(id)}/hls/128/segment_00000.m4s`;
    const stranger = await registerAccount("artist");
    const listener = await registerAccount("user");
    for (const client of [new Client(), stranger.client, listener.client]) {
      const body = await expectProblem(await client.get(path), 404, "TRACK_NOT_READY");
      expect(body.processingStatus).toBe("PROCESSING");
    }
    // A cookie that is present but invalid: refresh, then retry (not "not ready").
    const stale = await get(path, { cookie: "access_token=not.a.token" });
    await expectProblem(stale, 401, "UNAUTHORIZED");
  });

  it("is one database round trip, the owner's session check included", async () => {
    const { owner, id } = await unfinished();
    const path = `${base(id)}/hls/master.m3u8`;
    const before = await tripsSoFar();
    const response = await send(
      app,
      path,
      { headers: { "cf-connecting-ip": owner.client.ip, cookie: owner.client.jar.header(path) } },
      countingEnv,
    );
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect((await tripsSoFar()) - before).toBe(1);
  });

  it("is public and cached once READY, for its owner too", async () => {
    const { owner, id } = await unfinished();
    const path = `${base(id)}/hls/128/segment_00000.m4s`;
    expectPrivate(await owner.client.get(path));
    await withDb((db) =>
      db.update(tracks).set({ processingStatus: "READY" }).where(eq(tracks.id, id)),
    );
    const first = await get(path);
    expect([first.status, first.headers.get("x-edge-cache")]).toEqual([200, "miss"]);
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await first.arrayBuffer();
    const own = await owner.client.get(path);
    expect([own.status, own.headers.get("x-edge-cache"), await textOf(own)]).toEqual([
      200,
      "hit",
      "segment-zero",
    ]);
  });
});
