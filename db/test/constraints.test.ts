import { eq } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOREIGN_KEY_VIOLATION, pgErrorCode, UNIQUE_VIOLATION } from "../src/errors";
import { migrate } from "../src/migrate";
import * as schema from "../src/schema";
import { createTestDatabase, type TestDatabase } from "./support";

const {
  albums,
  artistLikes,
  artistSessions,
  artists,
  follows,
  listeningHistory,
  playlists,
  playlistTracks,
  trackFiles,
  tracks,
  users,
} = schema;

let database: TestDatabase;
let pool: pg.Pool;
let db: NodePgDatabase<typeof schema>;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url);
  pool = new pg.Pool({ connectionString: database.url });
  db = drizzle({ client: pool, schema });
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}`;

async function newUser(fields: Partial<schema.NewUser> = {}) {
  const name = unique("user");
  const [user] = await db
    .insert(users)
    .values({ username: name, email: `${name}@example.com`, ...fields })
    .returning();
  if (!user) throw new Error("insert returned nothing");
  return user;
}

async function newArtist(fields: Partial<schema.NewArtist> = {}) {
  const name = unique("artist");
  const [artist] = await db
    .insert(artists)
    .values({ username: name, email: `${name}@example.com`, ...fields })
    .returning();
  if (!artist) throw new Error("insert returned nothing");
  return artist;
}

async function newAlbum(artistId: string) {
  const [album] = await db.insert(albums).values({ artistId, title: "LP" }).returning();
  if (!album) throw new Error("insert returned nothing");
  return album;
}

async function newTrack(artistId: string, albumId: string | null = null) {
  const [track] = await db.insert(tracks).values({ artistId, albumId, title: "Song" }).returning();
  if (!track) throw new Error("insert returned nothing");
  return track;
}

/** The rejection of `promise`, failing the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the statement to be rejected"),
    (err: unknown) => err,
  );
}

describe("uniqueness", () => {
  it("rejects a username differing only in case, with SQLSTATE 23505", async () => {
    const name = unique("Casey");
    await newUser({ username: name });
    const err = await rejectionOf(newUser({ username: name.toUpperCase() }));
    expect(pgErrorCode(err)).toBe(UNIQUE_VIOLATION);
  });

  it("rejects a second account of the same kind with the same email", async () => {
    const { email } = await newArtist();
    expect(pgErrorCode(await rejectionOf(newArtist({ email })))).toBe(UNIQUE_VIOLATION);
  });

  it("allows a user and an artist to share an email and a username", async () => {
    const user = await newUser();
    const artist = await newArtist({ username: user.username, email: user.email });
    expect(artist.email).toBe(user.email);
  });

  it("rejects a reference to a missing row with SQLSTATE 23503", async () => {
    const err = await rejectionOf(newTrack(crypto.randomUUID()));
    expect(pgErrorCode(err)).toBe(FOREIGN_KEY_VIOLATION);
  });
});

describe("deletes", () => {
  it("deleting an artist removes their tracks, files, sessions, follows and likes", async () => {
    const artist = await newArtist();
    const fan = await newUser();
    const album = await newAlbum(artist.id);
    const track = await newTrack(artist.id, album.id);
    const [playlist] = await db
      .insert(playlists)
      .values({ userId: fan.id, title: "Mix" })
      .returning();
    if (!playlist) throw new Error("insert returned nothing");
    await db.insert(trackFiles).values({
      trackId: track.id,
      kind: "opus",
      bitrate: 128,
      storageKey: `tracks/${track.id}/128.opus`,
      contentType: "audio/ogg",
      sizeBytes: 1234,
    });
    await db
      .insert(artistSessions)
      .values({ principalId: artist.id, refreshTokenId: crypto.randomUUID() });
    await db.insert(follows).values({ userId: fan.id, artistId: artist.id });
    await db.insert(artistLikes).values({ userId: fan.id, artistId: artist.id });
    await db
      .insert(playlistTracks)
      .values({ playlistId: playlist.id, trackId: track.id, position: 0 });
    await db
      .insert(listeningHistory)
      .values({ id: crypto.randomUUID(), userId: fan.id, trackId: track.id });

    await db.delete(artists).where(eq(artists.id, artist.id));

    expect(await db.$count(tracks, eq(tracks.artistId, artist.id))).toBe(0);
    expect(await db.$count(albums, eq(albums.artistId, artist.id))).toBe(0);
    expect(await db.$count(trackFiles, eq(trackFiles.trackId, track.id))).toBe(0);
    expect(await db.$count(artistSessions, eq(artistSessions.principalId, artist.id))).toBe(0);
    expect(await db.$count(follows, eq(follows.artistId, artist.id))).toBe(0);
    expect(await db.$count(artistLikes, eq(artistLikes.artistId, artist.id))).toBe(0);
    expect(await db.$count(playlistTracks, eq(playlistTracks.trackId, track.id))).toBe(0);
    expect(await db.$count(listeningHistory, eq(listeningHistory.trackId, track.id))).toBe(0);
    // The fan and their playlist are someone else's data.
    expect(await db.$count(users, eq(users.id, fan.id))).toBe(1);
    expect(await db.$count(playlists, eq(playlists.id, playlist.id))).toBe(1);
  });

  it("deleting an album keeps its tracks as singles", async () => {
    const artist = await newArtist();
    const album = await newAlbum(artist.id);
    const track = await newTrack(artist.id, album.id);

    await db.delete(albums).where(eq(albums.id, album.id));

    const [after] = await db.select().from(tracks).where(eq(tracks.id, track.id));
    expect(after).toBeDefined();
    expect(after?.albumId).toBeNull();
  });
});

describe("a track's place in its album", () => {
  const positions = async (albumId: string) =>
    (
      await db
        .select({ id: tracks.id, position: tracks.albumPosition })
        .from(tracks)
        .where(eq(tracks.albumId, albumId))
    )
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((row) => row.position);

  it("joins after the album's last track, and a single has none", async () => {
    const artist = await newArtist();
    const album = await newAlbum(artist.id);
    const first = await newTrack(artist.id, album.id);
    const second = await newTrack(artist.id, album.id);
    const single = await newTrack(artist.id);
    expect([first.albumPosition, second.albumPosition, single.albumPosition]).toEqual([1, 2, null]);
    // Moving a single in puts it last; moving a track out takes its place away.
    await db.update(tracks).set({ albumId: album.id }).where(eq(tracks.id, single.id));
    expect(await positions(album.id)).toEqual([1, 2, 3]);
    const [out] = await db
      .update(tracks)
      .set({ albumId: null })
      .where(eq(tracks.id, first.id))
      .returning();
    expect(out?.albumPosition).toBeNull();
    // Setting the same album again (an edit of other fields with it) keeps the place.
    const [same] = await db
      .update(tracks)
      .set({ albumId: album.id, title: "Renamed" })
      .where(eq(tracks.id, second.id))
      .returning();
    expect(same?.albumPosition).toBe(2);
  });
});

describe("defaults", () => {
  it("a new playlist is private", async () => {
    const user = await newUser();
    const [playlist] = await db
      .insert(playlists)
      .values({ userId: user.id, title: "Mine" })
      .returning();
    expect(playlist?.isPublic).toBe(false);
    expect(playlist?.visibility).toBe("private");
    expect(playlist?.description).toBe("");
  });

  it("a playlist's isPublic and visibility cannot disagree", async () => {
    const user = await newUser();
    for (const [isPublic, visibility] of [
      [true, "private"],
      [true, "unlisted"],
      [false, "public"],
    ] as const) {
      await expect(
        db.insert(playlists).values({ userId: user.id, title: "x", isPublic, visibility }),
      ).rejects.toMatchObject({ cause: { code: "23514" } });
    }
    const [unlisted] = await db
      .insert(playlists)
      .values({ userId: user.id, title: "Link only", visibility: "unlisted" })
      .returning();
    expect(unlisted?.isPublic).toBe(false);
  });

  it("a new track and album are public, each with its own 32-hex share key", async () => {
    const artist = await newArtist();
    const [album] = await db.insert(albums).values({ artistId: artist.id, title: "A" }).returning();
    const one = await newTrack(artist.id);
    const two = await newTrack(artist.id);
    expect(one.visibility).toBe("public");
    expect(album?.visibility).toBe("public");
    for (const key of [one.shareKey, two.shareKey, album?.shareKey]) {
      expect(key).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(one.shareKey).not.toBe(two.shareKey);
  });

  it("a rating is 1 to 5", async () => {
    const user = await newUser();
    const track = await newTrack((await newArtist()).id);
    for (const rating of [0, 6]) {
      await expect(
        db.insert(schema.trackRatings).values({ userId: user.id, trackId: track.id, rating }),
      ).rejects.toMatchObject({ cause: { code: "23514" } });
    }
    await db.insert(schema.trackRatings).values({ userId: user.id, trackId: track.id, rating: 5 });
  });

  it("a new track is PROCESSING with no attempts yet", async () => {
    const track = await newTrack((await newArtist()).id);
    expect(track).toMatchObject({ processingStatus: "PROCESSING", processingAttempts: 0 });
  });
});

describe("relations", () => {
  it("resolve through the shared auth tables in both directions", async () => {
    const artist = await newArtist();
    await db
      .insert(artistSessions)
      .values({ principalId: artist.id, refreshTokenId: crypto.randomUUID() });
    const withSessions = await db.query.artists.findFirst({
      where: eq(artists.id, artist.id),
      with: { sessions: true, twoFactor: true, tracks: true },
    });
    expect(withSessions?.sessions).toHaveLength(1);
    expect(withSessions?.twoFactor).toBeNull();
    const session = await db.query.artistSessions.findFirst({
      where: eq(artistSessions.principalId, artist.id),
      with: { principal: true },
    });
    expect(session?.principal.id).toBe(artist.id);
    // The default lifetime is 30 days from now.
    const days = ((session?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });
});
