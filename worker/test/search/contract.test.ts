import { albums, artists, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertAlbum, insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";
import {
  found,
  insertPlaylist,
  marker,
  results,
  SEARCH,
  search,
  searchRaw,
  TYPES,
} from "./support.ts";

describe("GET /search: response keys", () => {
  it("has all four keys when no type is asked for (and needs no sign-in)", async () => {
    const body = await results({ q: marker() });
    expect(Object.keys(body)).toEqual([...TYPES]);
    for (const type of TYPES) expect(body[type]).toEqual([]);
  });

  it.each([
    ["types[] repeated", "types[]=tracks&types[]=albums", ["tracks", "albums"]],
    ["types[] percent-encoded", "types%5B%5D=playlists", ["playlists"]],
    ["types without brackets", "types=artists", ["artists"]],
    ["types repeated", "types=artists&types=tracks", ["tracks", "artists"]],
    ["a comma-separated list", "types=playlists,artists", ["artists", "playlists"]],
    ["both names mixed", "types[]=albums&types=tracks", ["tracks", "albums"]],
    ["a value given twice", "types[]=albums&types[]=albums", ["albums"]],
  ])("has only the requested keys (%s), in canonical order", async (_, types, keys) => {
    const response = await searchRaw(`${SEARCH}?q=${marker()}&${types}`);
    expect(response.status).toBe(200);
    expect(Object.keys(await response.json())).toEqual(keys);
  });
});

describe("GET /search: items", () => {
  it("answers each type's fields and a numeric rank, nothing else", async () => {
    const m = marker();
    const artist = await insertArtist({ username: `${m} band`, bio: "Synthwave from Lisbon." });
    const avatar = `/static/avatars/${artist.id}.png`;
    await withDb((db) => db.update(artists).set({ avatar }).where(eq(artists.id, artist.id)));
    const track = await insertTrack(artist.id, {
      title: `${m} song`,
      cover: "/static/covers/t.png",
    });
    const album = await insertAlbum(artist.id, `${m} album`);
    const albumFields = { cover: "/static/covers/a.webp", releasedAt: "2024-05-17" };
    await withDb((db) => db.update(albums).set(albumFields).where(eq(albums.id, album.id)));
    const playlist = await insertPlaylist({
      title: `${m} mix`,
      description: "Songs for the night bus.",
      cover: "/static/covers/p.jpg",
    });

    const body = await results({ q: m });
    const rank = expect.any(Number);
    // Who made a track or an album, and who owns a playlist, come with it; a listener only by
    // display name (none set here), never by username.
    const by = { id: artist.id, username: artist.username, displayName: null };
    expect(body).toEqual({
      tracks: [
        {
          id: track.id,
          title: track.title,
          cover: track.cover,
          artistId: artist.id,
          artist: by,
          rank,
        },
      ],
      artists: [
        {
          id: artist.id,
          username: artist.username,
          displayName: null,
          avatar,
          bio: artist.bio,
          rank,
        },
      ],
      albums: [
        { id: album.id, title: album.title, artistId: artist.id, artist: by, ...albumFields, rank },
      ],
      playlists: [
        {
          id: playlist.id,
          title: playlist.title,
          description: playlist.description,
          cover: playlist.cover,
          userId: playlist.userId,
          owner: { id: playlist.userId, displayName: null },
          rank,
        },
      ],
    });
  });

  it("answers null for missing media and release date", async () => {
    const m = marker();
    const artist = await insertArtist({ username: m });
    const album = await insertAlbum(artist.id, m);
    const body = await results({ q: m, "types[]": ["artists", "albums"] });
    expect(body.artists?.[0]).toMatchObject({ id: artist.id, avatar: null, bio: "" });
    expect(body.albums?.[0]).toMatchObject({ id: album.id, cover: null, releasedAt: null });
  });

  it("matches artists by username only, tracks by title only", async () => {
    const m = marker();
    await insertArtist({ bio: `all about ${m}` });
    const named = await insertArtist({ username: `${m} crew` });
    await insertTrack(named.id, { title: "Unrelated title" });
    expect((await found("artists", m)).map((a) => a.id)).toEqual([named.id]);
    expect(await found("tracks", m)).toEqual([]);
  });

  it("returns only READY tracks", async () => {
    const m = marker();
    const artist = await insertArtist();
    const ready = await insertTrack(artist.id, { title: `${m} ready` });
    await insertTrack(artist.id, { title: `${m} processing`, processingStatus: "PROCESSING" });
    await insertTrack(artist.id, { title: `${m} failed`, processingStatus: "FAILED" });
    expect((await found("tracks", m)).map((t) => t.id)).toEqual([ready.id]);
  });

  it("returns only public playlists", async () => {
    const m = marker();
    const shared = await insertPlaylist({ title: `${m} shared` });
    await insertPlaylist({ title: `${m} secret`, isPublic: false });
    expect((await found("playlists", m)).map((p) => p.id)).toEqual([shared.id]);
  });
});

describe("GET /search: limit", () => {
  async function manyTracks(count: number) {
    const m = marker();
    const artist = await insertArtist();
    await withDb((db) =>
      db.insert(tracks).values(
        Array.from({ length: count }, (_, i) => ({
          artistId: artist.id,
          title: `${m} take ${i}`,
          processingStatus: "READY" as const,
        })),
      ),
    );
    return m;
  }

  it("returns at most 10 per type by default", async () => {
    const m = await manyTracks(12);
    expect((await results({ q: m, "types[]": "tracks" })).tracks).toHaveLength(10);
  });

  it("returns at most `limit` per type, up to 50", async () => {
    const m = await manyTracks(52);
    expect((await results({ q: m, "types[]": "tracks", limit: 3 })).tracks).toHaveLength(3);
    expect((await results({ q: m, "types[]": "tracks", limit: 50 })).tracks).toHaveLength(50);
  });
});

describe("GET /search: validation", () => {
  it.each([
    ["no q", "", "query.q"],
    ["an empty q", "q=", "query.q"],
    ["a q of spaces only", "q=%20%20%09", "query.q"],
    ["a q of 201 characters", `q=${"a".repeat(201)}`, "query.q"],
    ["a q of 201 emoji", `q=${encodeURIComponent("🎵".repeat(201))}`, "query.q"],
    ["a q with a NUL", "q=a%00b", "query.q"],
    ["q given twice", "q=a&q=b", "query.q"],
    ["an unknown type", "q=a&types[]=songs", "query.types[].0"],
    ["a type in capitals", "q=a&types[]=Tracks", "query.types[].0"],
    ["an empty type", "q=a&types=", "query.types.0"],
    ["an unknown type in a list", "q=a&types=tracks,users", "query.types.1"],
    ["a trailing comma", "q=a&types=tracks,", "query.types.1"],
    ["limit 0", "q=a&limit=0", "query.limit"],
    ["limit 51", "q=a&limit=51", "query.limit"],
    ["a negative limit", "q=a&limit=-1", "query.limit"],
    ["a fractional limit", "q=a&limit=1.5", "query.limit"],
    ["a limit that is no number", "q=a&limit=ten", "query.limit"],
    ["an empty limit", "q=a&limit=", "query.limit"],
    ["limit given twice", "q=a&limit=1&limit=2", "query.limit"],
  ])("answers 400 for %s", async (_, query, path) => {
    const body = await expectProblem(
      await searchRaw(`${SEARCH}?${query}`),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it("accepts 200 characters after trimming, counting code points", async () => {
    for (const q of [` ${"a".repeat(200)} `, "🎵".repeat(200)]) {
      expect((await search({ q })).status).toBe(200);
    }
  });
});
