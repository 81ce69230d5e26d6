import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../../support/auth.ts";
import { insertAlbum, insertArtist, insertTrack } from "../../support/factories.ts";
import { BAD_PAGE_QUERIES } from "../../support/paging.ts";
import { expectProblem } from "../../support/problem.ts";
import { ids, json } from "./support.ts";

const PUBLIC_KEYS = [
  "album",
  "albumId",
  "albumPosition",
  "artist",
  "artistId",
  "cover",
  "createdAt",
  "duration",
  "id",
  "loudness",
  "plays",
  "title",
].sort();
const PROCESSING_KEYS = [
  "processingAttempts",
  "processingError",
  "processingFinishedAt",
  "processingProgress",
  "processingStartedAt",
  "processingStatus",
  "sourceUnreadable",
  "visibility",
];

/** One artist with READY tracks made in order (oldest first) and one of each other state. */
async function catalogue() {
  const artist = await insertArtist();
  const ready = [];
  for (let i = 0; i < 3; i++) ready.push(await insertTrack(artist.id, { title: `Ready ${i}` }));
  await insertTrack(artist.id, { processingStatus: "PROCESSING", duration: null });
  await insertTrack(artist.id, { processingStatus: "FAILED", processingError: "bad input" });
  return { artist, ready };
}

describe("GET /api/v1/tracks", () => {
  it("lists READY tracks only, newest first, as public DTOs", async () => {
    const { artist, ready } = await catalogue();
    const response = await new Client().get(`/api/v1/tracks?artistId=${artist.id}`);
    expect(response.status).toBe(200);
    const body = await json<Array<Record<string, unknown>>>(response);
    expect(ids(body as Array<{ id: string }>)).toEqual(ids(ready).reverse());
    const [first] = body;
    expect(Object.keys(first ?? {}).sort()).toEqual(PUBLIC_KEYS);
    expect(first).toMatchObject({
      title: "Ready 2",
      duration: 215.5,
      artistId: artist.id,
      albumId: null,
      cover: null,
      album: null,
      albumPosition: null,
      artist: { id: artist.id, username: artist.username, displayName: null, avatar: null },
    });
  });

  it("filters by album", async () => {
    const artist = await insertArtist();
    const album = await insertAlbum(artist.id);
    const inAlbum = await insertTrack(artist.id, { albumId: album.id });
    await insertTrack(artist.id);
    const body = await json<Array<{ id: string; albumId: string }>>(
      await new Client().get(`/api/v1/tracks?albumId=${album.id}`),
    );
    expect(body).toEqual([expect.objectContaining({ id: inAlbum.id, albumId: album.id })]);
  });

  it("pages with page and limit", async () => {
    const { artist, ready } = await catalogue();
    const page = async (query: string) =>
      ids(await json(await new Client().get(`/api/v1/tracks?artistId=${artist.id}&${query}`)));
    expect(await page("limit=2")).toEqual([ready[2]?.id, ready[1]?.id]);
    expect(await page("limit=2&page=2")).toEqual([ready[0]?.id]);
    expect(await page("limit=2&page=3")).toEqual([]);
  });

  it("answers an empty page for an unknown artist", async () => {
    const response = await new Client().get(`/api/v1/tracks?artistId=${crypto.randomUUID()}`);
    expect(await json(response)).toEqual([]);
  });

  it.each([
    ["artistId=nope", "query.artistId"] as const,
    ["albumId=123", "query.albumId"] as const,
    ...BAD_PAGE_QUERIES,
  ])("400 for %s", async (query, path) => {
    const body = await expectProblem(
      await new Client().get(`/api/v1/tracks?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors).toEqual([expect.objectContaining({ path })]);
  });
});

describe("GET /api/v1/tracks/:id", () => {
  it("shows a READY track to anyone, without processing fields", async () => {
    const artist = await insertArtist();
    const track = await insertTrack(artist.id, { sourceKey: "uploads/secret.mp3" });
    const response = await new Client().get(`/api/v1/tracks/${track.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toMatch(/cookie/i);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(PUBLIC_KEYS);
    expect(body).toMatchObject({ id: track.id, title: track.title, artistId: artist.id });
  });

  it("carries the loudness with the gain to −14 LUFS, capped by the true peak", async () => {
    const artist = await insertArtist();
    const loud = await insertTrack(artist.id, { loudnessLufs: -9.8, truePeakDbtp: -0.4 });
    const quiet = await insertTrack(artist.id, { loudnessLufs: -20, truePeakDbtp: -3.5 });
    const silent = await insertTrack(artist.id, { loudnessLufs: null, truePeakDbtp: null });
    const loudness = async (id: string) =>
      (await json(await new Client().get(`/api/v1/tracks/${id}`))).loudness;
    expect(await loudness(loud.id)).toEqual({
      integratedLufs: -9.8,
      truePeakDbtp: -0.4,
      gainDb: -4.2,
    });
    // +6 dB would reach −14 LUFS, but the peak allows only +2.5 dB.
    expect(await loudness(quiet.id)).toMatchObject({ gainDb: 2.5 });
    expect(await loudness(silent.id)).toBeNull();
  });

  it("shows the owner the processing fields, whatever the state", async () => {
    const owner = await registerAccount("artist");
    const ready = await insertTrack(owner.id);
    const failed = await insertTrack(owner.id, {
      processingStatus: "FAILED",
      processingError: "ffmpeg exited with 1",
      processingAttempts: 5,
      processingStartedAt: new Date("2026-01-01T10:00:00Z"),
      processingFinishedAt: new Date("2026-01-01T10:05:00Z"),
    });
    const readyBody = await json(await owner.client.get(`/api/v1/tracks/${ready.id}`));
    expect(Object.keys(readyBody).sort()).toEqual([...PUBLIC_KEYS, ...PROCESSING_KEYS].sort());
    expect(readyBody).toMatchObject({ processingStatus: "READY", processingError: null });
    expect(await json(await owner.client.get(`/api/v1/tracks/${failed.id}`))).toMatchObject({
      id: failed.id,
      processingStatus: "FAILED",
      processingError: "ffmpeg exited with 1",
      processingAttempts: 5,
      processingStartedAt: "2026-01-01T10:00:00.000Z",
      processingFinishedAt: "2026-01-01T10:05:00.000Z",
    });
  });

  it("hides a track that is not READY from everyone but its owner", async () => {
    const owner = await registerAccount("artist");
    const processing = await insertTrack(owner.id, { processingStatus: "PROCESSING" });
    const path = `/api/v1/tracks/${processing.id}`;
    const strangers = [
      new Client(),
      (await registerAccount("artist")).client,
      (await registerAccount("user")).client,
    ];
    for (const client of strangers) await expectProblem(await client.get(path), 404, "NOT_FOUND");
    expect(await json(await owner.client.get(path))).toMatchObject({
      processingStatus: "PROCESSING",
    });
  });

  it("answers 401 to a present but invalid access cookie (refresh, then retry), not anonymous", async () => {
    const track = await insertTrack((await insertArtist()).id);
    const response = await new Client().get(`/api/v1/tracks/${track.id}`, {
      cookie: "access_token=not-a-token",
    });
    await expectProblem(response, 401, "UNAUTHORIZED");
    expect((await new Client().get(`/api/v1/tracks/${track.id}`)).status).toBe(200);
  });

  it("404 for an unknown track, 400 for an id that is not a UUID", async () => {
    await expectProblem(
      await new Client().get(`/api/v1/tracks/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await new Client().get("/api/v1/tracks/42"), 400, "VALIDATION_FAILED");
  });
});

describe("GET /api/v1/artists/:id/tracks", () => {
  it("lists the artist's READY tracks, newest first, paginated", async () => {
    const { artist, ready } = await catalogue();
    await insertTrack((await insertArtist()).id);
    const base = `/api/v1/artists/${artist.id}/tracks`;
    expect(ids(await json(await new Client().get(base)))).toEqual(ids(ready).reverse());
    expect(ids(await json(await new Client().get(`${base}?limit=1&page=3`)))).toEqual([
      ready[0]?.id,
    ]);
  });

  it("404 for an unknown artist, 400 for bad input", async () => {
    const client = new Client();
    await expectProblem(
      await client.get(`/api/v1/artists/${crypto.randomUUID()}/tracks`),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await client.get("/api/v1/artists/x/tracks"), 400, "VALIDATION_FAILED");
    const artist = await insertArtist();
    await expectProblem(
      await client.get(`/api/v1/artists/${artist.id}/tracks?page=-1`),
      400,
      "VALIDATION_FAILED",
    );
  });
});
