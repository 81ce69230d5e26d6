import { trackKeys } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import { coverUpload } from "../../src/io/outputs.ts";

/** The Worker's `mediaKey` (worker/src/images/images.ts): the only cover paths it serves or deletes. */
const WORKER_MEDIA_PATH = /^\/static\/(avatars|backgrounds|covers)\/[0-9a-f-]{36}\.(png|jpg|webp)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("coverUpload", () => {
  const trackId = "4d0f5c2e-8b1a-4c3d-9e2f-0a1b2c3d4e5f";
  const sourceKey = trackKeys(trackId).source("song.mp3");
  const file = { path: "/w/cover.jpg", size: 51_234 };

  it("a JPEG under static/covers/ as the Worker serves and deletes covers, cached forever", () => {
    const cover = coverUpload(trackId, sourceKey, file);
    expect(cover).toMatchObject({
      ...file,
      contentType: "image/jpeg",
      cacheControl: "public, max-age=31536000, immutable",
    });
    expect(cover.mediaPath).toBe(`/${cover.key}`);
    expect(cover.mediaPath).toMatch(WORKER_MEDIA_PATH);
    const name = /^static\/covers\/(.+)\.jpg$/.exec(cover.key)?.[1];
    expect(name).toMatch(UUID);
  });

  it("the same name for every attempt at one source; another source or track, another name", () => {
    const key = coverUpload(trackId, sourceKey, file).key;
    expect(coverUpload(trackId, sourceKey, { path: "/other/cover.jpg", size: 1 }).key).toBe(key);
    expect(coverUpload(trackId, trackKeys(trackId).source("take-2.mp3"), file).key).not.toBe(key);
    const otherTrack = "9f8e7d6c-5b4a-4321-8fed-cba987654321";
    expect(coverUpload(otherTrack, sourceKey, file).key).not.toBe(key);
  });
});
