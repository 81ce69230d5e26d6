import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { GetObjectCommand, NotFound, S3ServiceException } from "@aws-sdk/client-s3";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coverUpload } from "../../src/io/outputs.ts";
import type { Storage } from "../../src/io/storage.ts";
import { createHarness, type TestTrack } from "../support/harness.ts";
import { head } from "../support/outputs.ts";
import {
  BROKEN_IDAT,
  id3WithPicture,
  imageInfo,
  makeAudioWithPicture,
  makePicture,
  pngClaiming,
  SMALL_IDAT,
} from "../support/pictures.ts";
import { makeAudio, tempDir } from "../support/sources.ts";

/** Short sources: what is tested is the picture, not the audio. */
const SECONDS = 2;
const h = createHarness();
let dir: Awaited<ReturnType<typeof tempDir>>;
/** name → a file with its cover art (a 1600 × 900 PNG), or without any. */
const file = (name: string) => join(dir.path, name);

beforeAll(async () => {
  dir = await tempDir();
  await makePicture(file("wide.png"), 1600, 900);
  await Promise.all([
    ...["art.mp3", "art.flac", "art.m4a"].map((name) =>
      makeAudioWithPicture(file(name), SECONDS, file("wide.png")),
    ),
    makeAudio(file("plain.mp3"), SECONDS, ["-c:a", "libmp3lame", "-b:a", "128k"]),
  ]);
  const plain = await readFile(file("plain.mp3"));
  const tagged = (image: Buffer) => Buffer.concat([id3WithPicture(image, "image/png"), plain]);
  await writeFile(file("broken-art.mp3"), tagged(pngClaiming(800, 800, BROKEN_IDAT)));
  await writeFile(file("huge-art.mp3"), tagged(pngClaiming(7000, 7000, SMALL_IDAT)));
}, 60_000);
afterAll(async () => {
  await h.close();
  await dir.remove();
});

/** Where the track's cover from its source goes (the same for every attempt). */
const expectedCover = (track: TestTrack) =>
  coverUpload(track.trackId, track.sourceKey, { path: "", size: 0 });

/** Whether an object is in storage. */
async function exists(key: string): Promise<boolean> {
  try {
    await head(h, key);
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}

type CoverHook = (upload: () => Promise<void>, call: number) => Promise<void>;

/**
 * The real storage, whose uploads under static/covers/ are recorded (their keys) and go through
 * `around` (which does the upload by calling it, or not; by default it just does).
 */
function watchCoverUploads(around: CoverHook = (upload) => upload()) {
  const keys: string[] = [];
  const storage: Storage = {
    ...h.storage,
    async upload(item, signal) {
      const upload = () => h.storage.upload(item, signal);
      if (!item.key.startsWith("static/covers/")) return await upload();
      keys.push(item.key);
      await around(upload, keys.length);
    },
  };
  return { storage, keys };
}

/** An artist's own cover path (never stored here: only the row is compared). */
const artistCover = () => `/static/covers/${crypto.randomUUID()}.png`;

describe.concurrent("the cover art inside the upload becomes the track's cover", () => {
  it.for(["art.mp3", "art.flac", "art.m4a"])(
    "%s → a 1200 × 675 JPEG under static/covers/, named on the row",
    { timeout: 60_000 },
    async (name, context) => {
      const { enqueue, settle } = await h.startQueue(context);
      const track = await h.makeTrack(file(name));
      await enqueue(track);
      const row = await settle(track);
      expect(row.processingStatus).toBe("READY");
      const cover = expectedCover(track);
      expect(row.cover).toBe(cover.mediaPath);

      const object = await h.storage.client.send(
        new GetObjectCommand({ Bucket: h.bucket, Key: cover.key }),
      );
      expect(object.ContentType).toBe("image/jpeg");
      expect(object.CacheControl).toBe("public, max-age=31536000, immutable");
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      expect(bytes.length).toBeLessThanOrEqual(5 * 1024 * 1024);
      const stored = join(dir.path, `${track.trackId}.jpg`);
      await writeFile(stored, bytes);
      expect(await imageInfo(stored)).toEqual({ codec: "mjpeg", width: 1200, height: 675 });
    },
  );

  it("a file without cover art: the track keeps no cover", async (context) => {
    const { storage, keys } = watchCoverUploads();
    const { enqueue, settle } = await h.startQueue(context, { deps: { storage } });
    const track = await h.makeTrack(file("plain.mp3"));
    await enqueue(track);
    const row = await settle(track);
    expect(row).toMatchObject({ processingStatus: "READY", cover: null });
    expect(keys).toEqual([]);
  }, 60_000);

  it("a track uploaded with a cover keeps it: the file's art is not even stored", async (context) => {
    const { storage, keys } = watchCoverUploads();
    const { enqueue, settle } = await h.startQueue(context, { deps: { storage } });
    const track = await h.makeTrack(file("art.mp3"));
    const own = artistCover();
    await h.db.update(tracks).set({ cover: own }).where(eq(tracks.id, track.trackId));
    await enqueue(track);
    expect(await settle(track)).toMatchObject({ processingStatus: "READY", cover: own });
    expect(keys).toEqual([]);
  }, 60_000);

  it("a cover the artist gives during the conversion wins: the extracted one is deleted", async (context) => {
    const track = await h.makeTrack(file("art.mp3"));
    const own = artistCover();
    const { storage, keys } = watchCoverUploads(async (upload) => {
      await h.db.update(tracks).set({ cover: own }).where(eq(tracks.id, track.trackId));
      await upload();
    });
    const { enqueue, settle } = await h.startQueue(context, { deps: { storage } });
    await enqueue(track);
    expect(await settle(track)).toMatchObject({ processingStatus: "READY", cover: own });
    expect(keys).toEqual([expectedCover(track).key]);
    expect(await exists(expectedCover(track).key)).toBe(false);
  }, 60_000);

  it.for(["broken-art.mp3", "huge-art.mp3"])(
    "%s: the picture is skipped, the track still becomes READY, without a cover",
    { timeout: 60_000 },
    async (name, context) => {
      const { storage, keys } = watchCoverUploads();
      const { enqueue, settle } = await h.startQueue(context, { deps: { storage } });
      const track = await h.makeTrack(file(name));
      await enqueue(track);
      const row = await settle(track);
      expect(row).toMatchObject({ processingStatus: "READY", processingAttempts: 1, cover: null });
      expect(row.processingError).toBeNull();
      expect(keys).toEqual([]);
    },
  );
});

describe.concurrent("no cover left behind", () => {
  it("an attempt that stored the cover but failed before the commit: its retry writes the same object", async (context) => {
    // The cover lands, then the reply is lost: the attempt fails as storage failures do.
    const { storage, keys } = watchCoverUploads(async (upload, call) => {
      await upload();
      if (call > 1) return;
      throw new S3ServiceException({
        name: "InternalError",
        $fault: "server",
        $metadata: { httpStatusCode: 500 },
        message: "We encountered an internal error. Please try again.",
      });
    });
    const { enqueue, settle } = await h.startQueue(context, { deps: { storage } });
    const track = await h.makeTrack(file("art.mp3"));
    await enqueue(track);
    const row = await settle(track);
    expect(row).toMatchObject({ processingStatus: "READY", processingAttempts: 2 });
    const cover = expectedCover(track);
    // Both attempts wrote one name, the one the row holds: nothing under another is orphaned.
    expect(keys).toEqual([cover.key, cover.key]);
    expect(row.cover).toBe(cover.mediaPath);
    expect(await exists(cover.key)).toBe(true);
  }, 60_000);

  it("a track deleted during the conversion: the extracted cover is removed with its outputs", async (context) => {
    const track = await h.makeTrack(file("art.mp3"));
    const { storage, keys } = watchCoverUploads(async (upload) => {
      await h.db.delete(tracks).where(eq(tracks.id, track.trackId));
      await upload();
    });
    const { enqueue, queue } = await h.startQueue(context, { deps: { storage } });
    const job = await enqueue(track);
    for (let i = 0; (await queue.getJobState(job.id ?? "")) !== "completed"; i++) {
      if (i > 600) throw new Error("the job did not complete");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(keys).toEqual([expectedCover(track).key]);
    expect(await exists(expectedCover(track).key)).toBe(false);
  }, 60_000);
});
