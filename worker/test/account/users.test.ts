import { albumLikes, nowPlaying, trackRatings } from "@edge-music/db";
import { describe, expect, it } from "vitest";
import {
  authPath,
  Client,
  registerAccount,
  signInWithProvider,
  strongPassword,
  totpCode,
  turnOnTwoFactor,
  uniqueName,
} from "../support/auth.ts";
import { insertAlbum, insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

const path = authPath("user");

/** A listener with something of everything: a playlist with a track, a listen, a like, a follow. */
async function busyListener() {
  const account = await registerAccount("user");
  const artist = await insertArtist();
  const track = await insertTrack(artist.id);
  const created = await account.client.post("/api/v1/playlists", {
    title: "Mine",
    isPublic: false,
  });
  const playlist = (await created.json()) as { id: string };
  expect(
    (await account.client.post(`/api/v1/playlists/${playlist.id}/tracks`, { trackIds: [track.id] }))
      .status,
  ).toBe(200);
  expect((await account.client.post(`/api/v1/history/tracks/${track.id}`)).status).toBe(201);
  expect((await account.client.post(`/api/v1/artists/${artist.id}/follow`)).status).toBe(200);
  expect((await account.client.post(`/api/v1/artists/${artist.id}/like`)).status).toBe(200);
  expect((await account.client.post(`/api/v1/tracks/${track.id}/like`)).status).toBe(200);
  const queue = { trackIds: [track.id], current: track.id, position: 12, client: "web" };
  expect((await account.client.put("/api/v1/users/me/play-queue", queue)).status).toBe(204);
  // What Subsonic apps add: an app password, an album star, a rating, a song now playing.
  const made = await account.client.post("/api/v1/users/me/app-passwords", { name: "Phone" });
  const appPassword = (await made.json()) as { id: string; password: string };
  const album = await insertAlbum(artist.id);
  await withDb(async (db) => {
    await db.insert(albumLikes).values({ userId: account.id, albumId: album.id });
    await db.insert(trackRatings).values({ userId: account.id, trackId: track.id, rating: 4 });
    await db.insert(nowPlaying).values({ userId: account.id, trackId: track.id, client: "DSub" });
  });
  return { account, artist, track, playlist, album, appPassword };
}

describe("GET /api/v1/users/me/export", () => {
  it("answers everything held about the listener, and no secret", async () => {
    const { account, artist, track, playlist, album, appPassword } = await busyListener();
    const answer = await account.client.get("/api/v1/users/me/export");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename=/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const text = await answer.text();
    const data = JSON.parse(text);
    expect(data.account).toMatchObject({
      id: account.id,
      email: account.email,
      twoFactorEnabled: false,
    });
    expect(data.sessions).toHaveLength(1);
    expect(data.history.map((h: { trackId: string }) => h.trackId)).toEqual([track.id]);
    expect(data.playlists).toEqual([
      expect.objectContaining({
        id: playlist.id,
        tracks: [expect.objectContaining({ trackId: track.id, position: 0 })],
      }),
    ]);
    expect(data.follows.map((f: { artistId: string }) => f.artistId)).toEqual([artist.id]);
    expect(data.likedArtists.map((f: { artistId: string }) => f.artistId)).toEqual([artist.id]);
    expect(data.likedTracks.map((f: { trackId: string }) => f.trackId)).toEqual([track.id]);
    expect(data.playQueue).toMatchObject({ trackIds: [track.id], current: track.id, position: 12 });
    expect(data.likedAlbums.map((l: { albumId: string }) => l.albumId)).toEqual([album.id]);
    expect(data.ratings).toEqual([{ trackId: track.id, rating: 4, at: expect.any(String) }]);
    expect(data.nowPlaying).toMatchObject({ trackId: track.id, client: "DSub" });
    expect(data.appPasswords).toEqual([
      { id: appPassword.id, name: "Phone", createdAt: expect.any(String), lastUsedAt: null },
    ]);
    for (const secret of [
      appPassword.password,
      "passwordHash",
      "password_hash",
      "secretCiphertext",
      "codeHash",
      "argon2",
    ]) {
      expect(text).not.toContain(secret);
    }
    await expectProblem(await new Client().get("/api/v1/users/me/export"), 401, "UNAUTHORIZED");
  });
});

describe("DELETE /api/v1/users/me", () => {
  it("needs the password, then removes the account and everything personal at once", async () => {
    const { account, playlist } = await busyListener();
    const other = new Client();
    await other.post(`${path}/login`, { email: account.email, password: account.password });
    const wrong = await account.client.request("DELETE", "/api/v1/users/me", { password: "nope" });
    await expectProblem(wrong, 400, "VALIDATION_FAILED");
    await expectProblem(
      await account.client.request("DELETE", "/api/v1/users/me", {}),
      400,
      "VALIDATION_FAILED",
    );
    const gone = await account.client.request("DELETE", "/api/v1/users/me", {
      password: account.password,
    });
    expect(gone.status).toBe(204);
    expect(gone.headers.getSetCookie().join("\n")).toMatch(/access_token=;.*Max-Age=0/);
    for (const client of [account.client, other]) {
      await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
    }
    await expectProblem(
      await new Client().post(`${path}/login`, {
        email: account.email,
        password: account.password,
      }),
      401,
      "UNAUTHORIZED",
    );
    const anyone = await registerAccount("user");
    await expectProblem(
      await anyone.client.get(`/api/v1/playlists/${playlist.id}`),
      404,
      "NOT_FOUND",
    );
    // The address and the name are free again.
    const again = await new Client().post(`${path}/register`, {
      username: uniqueName(),
      email: account.email,
      password: strongPassword(),
    });
    expect(again.status).toBe(201);
  });

  it("lets an account without a password leave within 5 minutes of signing in", async () => {
    const client = await signInWithProvider("user");
    expect((await client.request("DELETE", "/api/v1/users/me", {})).status).toBe(204);
    await expectProblem(await client.get(`${path}/me`), 401, "UNAUTHORIZED");
  });

  it("asks an account with 2FA on for a current code as well as the password", async () => {
    const account = await registerAccount("user");
    const { secret } = await turnOnTwoFactor("user", account);
    const leave = (body: object) => account.client.request("DELETE", "/api/v1/users/me", body);
    await expectProblem(await leave({ password: account.password }), 400, "VALIDATION_FAILED");
    expect((await account.client.get(`${path}/me`)).status).toBe(200);
    const left = await leave({ password: account.password, code: await totpCode(secret, 1) });
    expect(left.status).toBe(204);
  });
});

describe("GET /api/v1/artists/me/export", () => {
  it("answers the artist's account, tracks in every state and albums, counts of followers, and no secret", async () => {
    const artist = await registerAccount("artist");
    const track = await insertTrack(artist.id, {
      processingStatus: "FAILED",
      processingError: "bad",
    });
    const fan = await registerAccount("user");
    await fan.client.post(`/api/v1/artists/${artist.id}/follow`);
    const made = await artist.client.post("/api/v1/artists/me/app-passwords", { name: "Tablet" });
    const appPassword = (await made.json()) as { id: string; password: string };
    const answer = await artist.client.get("/api/v1/artists/me/export");
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const data = JSON.parse(text);
    expect(data.account).toMatchObject({ id: artist.id, email: artist.email });
    expect(data.tracks).toEqual([
      expect.objectContaining({ id: track.id, processingStatus: "FAILED", processingError: "bad" }),
    ]);
    expect(data.followers).toBe(1);
    expect(data.appPasswords).toEqual([
      expect.objectContaining({ id: appPassword.id, name: "Tablet" }),
    ]);
    expect(text).not.toContain(fan.id);
    for (const secret of [
      appPassword.password,
      "passwordHash",
      "secretCiphertext",
      "codeHash",
      "argon2",
    ]) {
      expect(text).not.toContain(secret);
    }
    // A listener's session is not an artist's.
    await expectProblem(await fan.client.get("/api/v1/artists/me/export"), 403, "FORBIDDEN");
  });
});

describe("DELETE /api/v1/artists/{id}", () => {
  it("needs the artist's password", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    await expectProblem(await artist.client.delete(path), 400, "VALIDATION_FAILED");
    await expectProblem(
      await artist.client.request("DELETE", path, { password: "wrong" }),
      400,
      "VALIDATION_FAILED",
    );
    expect((await artist.client.get("/api/v1/artists/auth/me")).status).toBe(200);
    expect(
      (await artist.client.request("DELETE", path, { password: artist.password })).status,
    ).toBe(204);
  });
});
