import { env } from "cloudflare:workers";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env.ts";
import { app, type Registered, registerAccount } from "../../support/auth.ts";
import { byteDifference } from "../../support/body.ts";
import { CLOSED_PORT, send, testBindings } from "../../support/env.ts";
import { IMAGE_BYTES, insertAlbum, withDb } from "../../support/factories.ts";
import { describeGuardMatrix } from "../../support/guard-matrix.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob } from "../../support/queue.ts";

const bucket = () => (env as Bindings).MEDIA as R2Bucket;

/** A tiny but real WAV header followed by silence. */
function wav(bytes = 4096): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + bytes);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode("RIFF"), 0);
  view.setUint32(4, 36 + bytes, true);
  out.set(new TextEncoder().encode("WAVEfmt "), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, 44100, true);
  view.setUint32(28, 44100 * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  out.set(new TextEncoder().encode("data"), 36);
  view.setUint32(40, bytes, true);
  return out;
}

function uploadForm(fields: {
  title?: string;
  albumId?: string;
  visibility?: string;
  file?: [Uint8Array<ArrayBuffer>, string];
  cover?: Uint8Array<ArrayBuffer>;
}) {
  const form = new FormData();
  if (fields.title !== undefined) form.set("title", fields.title);
  if (fields.albumId !== undefined) form.set("albumId", fields.albumId);
  if (fields.visibility !== undefined) form.set("visibility", fields.visibility);
  if (fields.file) form.set("file", new File([fields.file[0]], fields.file[1]));
  if (fields.cover) form.set("cover", new File([fields.cover], "cover.png"));
  return form;
}

const post = (artist: Registered, form: FormData, overrides: Partial<Bindings> = {}) =>
  send(
    app,
    "/api/v1/tracks",
    {
      method: "POST",
      body: form,
      headers: { cookie: `access_token=${artist.client.jar.get("access_token")}` },
    },
    testBindings(overrides),
  );

const rowsOf = (artistId: string) =>
  withDb((db) => db.select().from(tracks).where(eq(tracks.artistId, artistId)));

describe("POST /api/v1/tracks", () => {
  it("streams the file to storage, creates the track PROCESSING and queues its job", async () => {
    const artist = await registerAccount("artist");
    const album = await insertAlbum(artist.id);
    const audio = wav(100_000);
    const response = await post(
      artist,
      uploadForm({
        title: "  First Light ",
        albumId: album.id,
        file: [audio, "My Song (final).wav"],
        cover: IMAGE_BYTES.png,
      }),
    );
    expect(response.status).toBe(202);
    const track = (await response.json()) as Record<string, unknown> & {
      id: string;
      cover: string;
    };
    expect(track).toMatchObject({
      title: "First Light",
      artistId: artist.id,
      albumId: album.id,
      processingStatus: "PROCESSING",
      processingAttempts: 0,
      duration: null,
    });
    expect(track.cover).toMatch(/^\/static\/covers\//);
    expect(track).not.toHaveProperty("sourceKey");

    const [row] = await rowsOf(artist.id);
    expect(row?.sourceKey).toBe(`tracks/${track.id}/source/My_Song_final_.wav`);
    const stored = await bucket().get(row?.sourceKey ?? "");
    const storedBytes = new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
    expect(byteDifference(storedBytes, audio)).toBeNull();

    const job = await conversionJob(track.id, "My Song (final).wav");
    expect(job?.id).toBe(`convert-audio-${track.id}-My_Song_final_.wav`);
    expect(job?.data).toEqual({
      trackId: track.id,
      artistId: artist.id,
      sourceKey: row?.sourceKey,
      sourceFileName: "My_Song_final_.wav",
    });
    expect(job?.opts).toMatchObject({
      attempts: 5,
      backoff: { type: "exponential", delay: 5000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 604800, count: 5000 },
    });
  });

  it.each([
    ["MP3 with an ID3 tag", [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 10]],
    ["MP3 frame", [0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]],
    ["FLAC", [0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 34]],
    ["M4A", [0, 0, 0, 32, 0x66, 0x74, 0x79, 0x70, 0x4d, 0x34, 0x41, 0x20]],
    ["OGG", [0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0]],
  ])("accepts %s recognised by its bytes", async (_name, head) => {
    const artist = await registerAccount("artist");
    const bytes = new Uint8Array(512);
    bytes.set(head);
    const response = await post(artist, uploadForm({ title: "x", file: [bytes, "no-extension"] }));
    expect(response.status).toBe(202);
  });

  it("refuses what is not audio by its bytes (415), whatever its name, and keeps nothing", async () => {
    const artist = await registerAccount("artist");
    const text = new TextEncoder().encode("this is a text file pretending to be music".repeat(10));
    const response = await post(artist, uploadForm({ title: "Fake", file: [text, "song.mp3"] }));
    const problem = await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(problem.detail).toBe(
      "This file is not audio we can read: it looks like text. Upload MP3, WAV, FLAC, M4A, OGG or Opus audio.",
    );
    expect(await rowsOf(artist.id)).toEqual([]);
  });

  it("says what a refused file looks like: a PNG named .mp3", async () => {
    const artist = await registerAccount("artist");
    const png = new Uint8Array(256);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const response = await post(artist, uploadForm({ title: "Cover", file: [png, "song.mp3"] }));
    const problem = await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(problem.detail).toMatch(
      /^This file is not audio we can read: it looks like a PNG image\./,
    );
  });

  it("refuses a missing title or file (400) and deletes what was stored", async () => {
    const artist = await registerAccount("artist");
    const noTitle = await expectProblem(
      await post(artist, uploadForm({ file: [wav(), "a.wav"] })),
      400,
      "VALIDATION_FAILED",
    );
    expect(noTitle.errors).toEqual([expect.objectContaining({ path: "form.title" })]);
    await expectProblem(
      await post(artist, uploadForm({ title: "No file" })),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await post(artist, uploadForm({ title: "x".repeat(201), file: [wav(), "a.wav"] })),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await post(
        artist,
        uploadForm({ title: "Bad album", albumId: "nope", file: [wav(), "a.wav"] }),
      ),
      400,
      "VALIDATION_FAILED",
    );
    const badVisibility = await expectProblem(
      await post(
        artist,
        uploadForm({ title: "Bad visibility", visibility: "secret", file: [wav(), "a.wav"] }),
      ),
      400,
      "VALIDATION_FAILED",
    );
    expect(JSON.stringify(badVisibility)).toContain("form.visibility");
    expect(await rowsOf(artist.id)).toEqual([]);
  });

  it("makes the track unlisted or private when asked, public by default", async () => {
    const artist = await registerAccount("artist");
    for (const visibility of ["unlisted", "private", undefined]) {
      const response = await post(
        artist,
        uploadForm({
          title: `As ${visibility}`,
          file: [wav(), "a.wav"],
          ...(visibility ? { visibility } : {}),
        }),
      );
      expect(response.status).toBe(202);
      expect(await response.json()).toMatchObject({ visibility: visibility ?? "public" });
    }
    const rows = await rowsOf(artist.id);
    expect(rows.map((row) => row.visibility).sort()).toEqual(["private", "public", "unlisted"]);
  });

  it("refuses another artist's album (404)", async () => {
    const [artist, other] = [await registerAccount("artist"), await registerAccount("artist")];
    const album = await insertAlbum(other.id);
    const response = await post(
      artist,
      uploadForm({ title: "x", albumId: album.id, file: [wav(), "a.wav"] }),
    );
    await expectProblem(response, 404, "NOT_FOUND");
    expect(await rowsOf(artist.id)).toEqual([]);
  });

  it("refuses a file over the limit (413) and keeps nothing", async () => {
    const artist = await registerAccount("artist");
    const response = await post(
      artist,
      uploadForm({ title: "Long", file: [wav(200_000), "a.wav"] }),
      {
        MAX_UPLOAD_BYTES: "100000",
      },
    );
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(await rowsOf(artist.id)).toEqual([]);
  });

  it("answers 503 and keeps nothing when the queue is unreachable", async () => {
    const artist = await registerAccount("artist");
    const response = await post(artist, uploadForm({ title: "Offline", file: [wav(), "a.wav"] }), {
      REDIS_URL: `redis://127.0.0.1:${CLOSED_PORT}`,
    });
    await expectProblem(response, 503, "SERVICE_UNAVAILABLE");
    expect(await rowsOf(artist.id)).toEqual([]);
  });

  it("refuses a body that is not multipart (415)", async () => {
    const artist = await registerAccount("artist");
    const response = await artist.client.post("/api/v1/tracks", { title: "json" });
    await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describeGuardMatrix([{ method: "POST", path: "/api/v1/tracks", kind: "artist" }]);
