import { env } from "cloudflare:workers";
import { artistLikes, follows, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env.ts";
import { Client, type Registered, registerAccount, uniqueName } from "../../support/auth.ts";
import {
  IMAGE_BYTES,
  insertAlbum,
  insertTrack,
  insertUser,
  withDb,
} from "../../support/factories.ts";
import { describeGuardMatrix } from "../../support/guard-matrix.ts";
import { expectProblem } from "../../support/problem.ts";
import { conversionJob, waitingConversionJob } from "../../support/queue.ts";

const bucket = () => (env as Bindings).MEDIA as R2Bucket;
const anyone = () => new Client();

const imageForm = (fields: Record<string, string | [Uint8Array<ArrayBuffer>, string]>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.set(name, value);
    else form.set(name, new File([value[0]], value[1]));
  }
  return form;
};

const updateProfile = (artist: Registered, body: unknown) =>
  artist.client.put(`/api/v1/artists/${artist.id}`, body);

describe("artist profiles", () => {
  it("GET /artists/:id answers exactly the public fields", async () => {
    const artist = await registerAccount("artist");
    const response = await anyone().get(`/api/v1/artists/${artist.id}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      "_count",
      "avatar",
      "backgroundImage",
      "bio",
      "createdAt",
      "displayName",
      "id",
      "username",
    ]);
    expect(body).toMatchObject({ id: artist.id, username: artist.username, bio: "", avatar: null });
    expect(body._count).toEqual({ followers: 0, likes: 0 });
    expect(JSON.stringify(body)).not.toContain(artist.email);
  });

  it("finds an artist by username, case-insensitively, and 404s unknown ones", async () => {
    const artist = await registerAccount("artist");
    const response = await anyone().get(
      `/api/v1/artists/by-username/${artist.username.toUpperCase()}`,
    );
    expect(await response.json()).toMatchObject({ id: artist.id });
    await expectProblem(
      await anyone().get(`/api/v1/artists/by-username/${uniqueName()}`),
      404,
      "NOT_FOUND",
    );
  });

  it("answers 400 for an id that is not a UUID and 404 for an unknown one", async () => {
    await expectProblem(await anyone().get("/api/v1/artists/12345"), 400, "VALIDATION_FAILED");
    await expectProblem(
      await anyone().get(`/api/v1/artists/${crypto.randomUUID()}`),
      404,
      "NOT_FOUND",
    );
  });

  it("lists artists newest first with follower counts and validates paging", async () => {
    const artist = await registerAccount("artist");
    const fan = await insertUser();
    await withDb((db) => db.insert(follows).values({ userId: fan.id, artistId: artist.id }));
    const page = (await (await anyone().get("/api/v1/artists?limit=100")).json()) as Array<{
      id: string;
      _count: { followers: number };
    }>;
    expect(page.find((a) => a.id === artist.id)?._count.followers).toBe(1);
    for (const query of ["page=0", "limit=0", "limit=101", "page=x", "limit=1.5"]) {
      await expectProblem(await anyone().get(`/api/v1/artists?${query}`), 400, "VALIDATION_FAILED");
    }
    const one = (await (await anyone().get("/api/v1/artists?limit=1&page=1")).json()) as unknown[];
    expect(one).toHaveLength(1);
  });
});

describe("PUT /artists/:id", () => {
  it("updates username and bio (JSON)", async () => {
    const artist = await registerAccount("artist");
    const username = uniqueName();
    const response = await updateProfile(artist, { username, bio: "New bio" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ username, bio: "New bio" });
  });

  it("refuses a taken username (409), bad fields (400) and an empty update (400)", async () => {
    const [artist, other] = [await registerAccount("artist"), await registerAccount("artist")];
    await expectProblem(
      await updateProfile(artist, { username: other.username.toUpperCase() }),
      409,
      "CONFLICT",
    );
    await expectProblem(await updateProfile(artist, { username: "a b" }), 400, "VALIDATION_FAILED");
    await expectProblem(
      await updateProfile(artist, { bio: "x".repeat(1001) }),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(await updateProfile(artist, {}), 400, "VALIDATION_FAILED");
    await expectProblem(await updateProfile(artist, { bio: 42 }), 400, "VALIDATION_FAILED");
  });

  it("stores an avatar and a background, serves them, and deletes a replaced one", async () => {
    const artist = await registerAccount("artist");
    const first = await artist.client.form(
      "PUT",
      `/api/v1/artists/${artist.id}`,
      imageForm({
        avatar: [IMAGE_BYTES.png, "me.jpg"],
        backgroundImage: [IMAGE_BYTES.webp, "bg"],
        bio: "with images",
      }),
    );
    expect(first.status).toBe(200);
    const profile = (await first.json()) as {
      avatar: string;
      backgroundImage: string;
      bio: string;
    };
    expect(profile.avatar).toMatch(/^\/static\/avatars\/[0-9a-f-]{36}\.png$/);
    expect(profile.backgroundImage).toMatch(/^\/static\/backgrounds\/[0-9a-f-]{36}\.webp$/);
    expect(profile.bio).toBe("with images");

    const served = await anyone().get(profile.avatar);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGE_BYTES.png);
    const etag = served.headers.get("etag") ?? "";
    expect((await anyone().get(profile.avatar, { "if-none-match": etag })).status).toBe(304);

    const second = await artist.client.form(
      "PUT",
      `/api/v1/artists/${artist.id}`,
      imageForm({ avatar: [IMAGE_BYTES.jpg, "new.png"] }),
    );
    const updated = (await second.json()) as { avatar: string; backgroundImage: string };
    expect(updated.avatar).toMatch(/\.jpg$/);
    expect(updated.backgroundImage).toBe(profile.backgroundImage);
    await expectProblem(await anyone().get(profile.avatar), 404, "NOT_FOUND");
  });

  it("refuses what is not an image (415) and images over 5 MB (413)", async () => {
    const artist = await registerAccount("artist");
    const text = new TextEncoder().encode("not really a picture");
    await expectProblem(
      await artist.client.form(
        "PUT",
        `/api/v1/artists/${artist.id}`,
        imageForm({ avatar: [text, "cat.png"] }),
      ),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(IMAGE_BYTES.png);
    await expectProblem(
      await artist.client.form(
        "PUT",
        `/api/v1/artists/${artist.id}`,
        imageForm({ avatar: [huge, "big.png"] }),
      ),
      413,
      "PAYLOAD_TOO_LARGE",
    );
    await expectProblem(
      await artist.client.form(
        "PUT",
        `/api/v1/artists/${artist.id}`,
        imageForm({ avatar: "just text" }),
      ),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("refuses a body that is neither JSON nor multipart (415)", async () => {
    const artist = await registerAccount("artist");
    const response = await artist.client.request("PUT", `/api/v1/artists/${artist.id}`, undefined, {
      "content-type": "text/plain",
    });
    await expectProblem(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("DELETE /artists/:id", () => {
  it("removes the account and everything of it, in the database and in storage", async () => {
    const artist = await registerAccount("artist");
    const upload = await artist.client.form(
      "PUT",
      `/api/v1/artists/${artist.id}`,
      imageForm({ avatar: [IMAGE_BYTES.png, "a.png"] }),
    );
    const { avatar } = (await upload.json()) as { avatar: string };
    const track = await insertTrack(artist.id);
    const converting = await insertTrack(artist.id, {
      processingStatus: "PROCESSING",
      sourceFileName: "demo.flac",
    });
    await waitingConversionJob(converting, "demo.flac");
    await insertAlbum(artist.id);
    const fan = await insertUser();
    await withDb(async (db) => {
      await db.insert(follows).values({ userId: fan.id, artistId: artist.id });
      await db.insert(artistLikes).values({ userId: fan.id, artistId: artist.id });
    });
    await bucket().put(`tracks/${track.id}/hls/master.m3u8`, "#EXTM3U");
    await bucket().put(`tracks/${track.id}/audio/128k.opus`, "opus");

    const response = await artist.client.request("DELETE", `/api/v1/artists/${artist.id}`, {
      password: artist.password,
    });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().join()).toMatch(/access_token=;/);

    await expectProblem(await anyone().get(`/api/v1/artists/${artist.id}`), 404, "NOT_FOUND");
    await expectProblem(await artist.client.get("/api/v1/artists/auth/me"), 401, "UNAUTHORIZED");
    const left = await withDb(async (db) => ({
      tracks: await db.select().from(tracks).where(eq(tracks.artistId, artist.id)),
      follows: await db.select().from(follows).where(eq(follows.artistId, artist.id)),
      likes: await db.select().from(artistLikes).where(eq(artistLikes.artistId, artist.id)),
    }));
    expect(left).toEqual({ tracks: [], follows: [], likes: [] });
    expect((await bucket().list({ prefix: `tracks/${track.id}/` })).objects).toEqual([]);
    expect(await bucket().head(avatar.slice(1))).toBeNull();
    expect(await conversionJob(converting.id, "demo.flac")).toBeUndefined();
    // Signing in again is impossible.
    const login = await new Client().post("/api/v1/artists/auth/login", {
      email: artist.email,
      password: artist.password,
    });
    await expectProblem(login, 401, "UNAUTHORIZED");
  });
});

describeGuardMatrix([
  {
    method: "PUT",
    path: (owner) => `/api/v1/artists/${owner.id}`,
    kind: "artist",
    body: { bio: "x" },
    owned: true,
  },
  { method: "DELETE", path: (owner) => `/api/v1/artists/${owner.id}`, kind: "artist", owned: true },
]);
