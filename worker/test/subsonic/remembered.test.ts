import { listeningHistory, trackLikes } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Caller } from "../../src/features/subsonic/credentials.ts";
import {
  forgetAll,
  knownCount,
  MAX_KNOWN,
  recall,
  remember,
  TTL_MS,
} from "../../src/features/subsonic/verified.ts";
import { authPath } from "../support/auth.ts";
import { withDb } from "../support/factories.ts";
import {
  type Answer,
  type AppAccount,
  appAccount,
  call,
  catalogue,
  errorCode,
  json,
  md5Hex,
  tokenAuth,
} from "./support.ts";

const f = "json";

const likesOf = (userId: string) =>
  withDb((db) => db.select().from(trackLikes).where(eq(trackLikes.userId, userId)));
const listensOf = (userId: string) =>
  withDb((db) => db.select().from(listeningHistory).where(eq(listeningHistory.userId, userId)));

/**
 * A credential the isolate proved is remembered (ADR 0029) so that a write is one round trip;
 * the memory never decides alone: the statement that leads the batch confirms the app password
 * still holds, and a call whose check fails there is judged by the database as if nothing were
 * known.
 */
describe("a credential the isolate remembers", () => {
  it("still ends at once: deleted, a password change, sign out everywhere, the account gone", async () => {
    const { first } = await catalogue();
    const ends = async (account: AppAccount, end: () => Promise<unknown>) => {
      const token = () => tokenAuth(account.username, account.appPassword);
      // Proved and remembered by a first call, then a write in one round trip.
      expect(await errorCode(await call("ping", { ...(await token()), f }))).toBeUndefined();
      await end();
      for (const auth of [await token(), { apiKey: account.appPassword }]) {
        const code = await errorCode(await call("star", { ...auth, id: first.id, f }));
        expect(code).toBe("apiKey" in auth ? 44 : 40);
      }
      expect(await likesOf(account.id)).toEqual([]);
    };

    const deleted = await appAccount();
    await ends(deleted, () =>
      deleted.client.delete(`/api/v1/users/me/app-passwords/${deleted.appPasswordId}`),
    );
    const changed = await appAccount();
    await ends(changed, () =>
      changed.client.post(`${authPath("user")}/password/change`, {
        currentPassword: changed.password,
        newPassword: `${changed.password}-2`,
      }),
    );
    const everywhere = await appAccount();
    await ends(everywhere, () => everywhere.client.delete(`${authPath("user")}/sessions`));
    const gone = await appAccount();
    await ends(gone, async () => {
      const removed = await gone.client.request("DELETE", "/api/v1/users/me", {
        password: gone.password,
      });
      expect(removed.status).toBe(204);
    });
  });

  it("is the username's it was proved with: a renamed artist's old name no longer signs in", async () => {
    const artist = await appAccount("artist");
    const old = { u: artist.username, p: artist.appPassword, f };
    expect(await errorCode(await call("ping", old))).toBeUndefined();
    const renamed = `${artist.username}x`.slice(0, 30);
    const patched = await artist.client.request("PUT", `/api/v1/artists/${artist.id}`, {
      username: renamed,
    });
    expect(patched.status).toBe(200);
    expect(await errorCode(await call("ping", old))).toBe(40);
    expect(await errorCode(await call("ping", { ...old, u: renamed }))).toBeUndefined();
    // Nor does a remembered secret sign in under someone else's name.
    const other = await appAccount();
    expect(
      await errorCode(await call("ping", { u: other.username, p: artist.appPassword, f })),
    ).toBe(40);
  });

  it("an artist's listener-only write is refused (50) and writes nothing", async () => {
    const { first } = await catalogue();
    const artist = await appAccount("artist");
    const auth = { apiKey: artist.appPassword, f };
    expect(await errorCode(await call("ping", auth))).toBeUndefined();
    expect(await errorCode(await call("star", { ...auth, id: first.id }))).toBe(50);
    expect(await errorCode(await call("savePlayQueue", { ...auth, id: first.id }))).toBe(50);
    expect(await errorCode(await call("createPlaylist", { ...auth, name: "No" }))).toBe(50);
  });
});

describe("a write is whole or not at all (checks that abort its batch)", () => {
  it("star and scrobble: one unknown song among many writes nothing", async () => {
    const { first, second, converting } = await catalogue();
    const account = await appAccount();
    for (const remembered of [false, true]) {
      if (!remembered) forgetAll();
      const auth = { apiKey: account.appPassword, f };
      const named = [first.id, crypto.randomUUID(), second.id];
      expect(await errorCode(await call("star", { ...auth, id: named }))).toBe(70);
      expect(await errorCode(await call("star", { ...auth, id: [first.id, converting.id] }))).toBe(
        70,
      );
      expect(await errorCode(await call("scrobble", { ...auth, id: named }))).toBe(70);
      expect(await likesOf(account.id)).toEqual([]);
      expect(await listensOf(account.id)).toEqual([]);
    }
    // All known: every one is written, in one statement per kind.
    const auth = { apiKey: account.appPassword, f };
    expect(await errorCode(await call("star", { ...auth, id: [first.id, second.id] }))).toBe(
      undefined,
    );
    expect((await likesOf(account.id)).map((like) => like.trackId).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect(await errorCode(await call("scrobble", { ...auth, id: [first.id, first.id] }))).toBe(
      undefined,
    );
    expect((await listensOf(account.id)).map((listen) => listen.trackId)).toEqual([
      first.id,
      first.id,
    ]);
  });

  it("updatePlaylist: a bad index or song leaves the playlist as it was", async () => {
    const { first, second } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const made = await json(
      await call("createPlaylist", { ...auth, name: "Kept", songId: [first.id, second.id] }),
    );
    const id = made.playlist.id as string;
    // createPlaylist answers the playlist with its songs.
    expect(made.playlist.entry.map((song: Answer) => song.id)).toEqual([first.id, second.id]);
    const attempts = [
      { name: "Changed", songIndexToRemove: "2" },
      { name: "Changed", songIndexToRemove: "0", songIdToAdd: crypto.randomUUID() },
      { comment: "Changed", songIndexToRemove: ["0", "1", "7"] },
    ];
    for (const attempt of attempts) {
      expect(
        await errorCode(await call("updatePlaylist", { ...auth, playlistId: id, ...attempt })),
      ).toBe(70);
    }
    const kept = (await json(await call("getPlaylist", { ...auth, id }))).playlist;
    expect(kept).toMatchObject({ name: "Kept", songCount: 2 });
    expect(kept.comment).toBeUndefined();
    expect(kept.entry.map((song: Answer) => song.id)).toEqual([first.id, second.id]);
    // Indexes are those of getPlaylist's entries; repeated ones remove once.
    const removed = await call("updatePlaylist", {
      ...auth,
      playlistId: id,
      songIndexToRemove: ["1", "1"],
    });
    expect(await errorCode(removed)).toBeUndefined();
    const after = (await json(await call("getPlaylist", { ...auth, id }))).playlist;
    expect(after.entry.map((song: Answer) => song.id)).toEqual([first.id]);
  });
});

describe("what the isolate keeps", () => {
  const caller = (n: number): Caller => ({
    kind: "user",
    id: crypto.randomUUID(),
    username: `u${n}`,
    appPasswordId: crypto.randomUUID(),
    lastUsedAt: null,
  });

  it("recalls by token, plain password and apiKey, never a wrong token or another username", async () => {
    forgetAll();
    const now = new Date();
    const who = caller(1);
    remember({ form: "apiKey", apiKey: "secret-1" }, who, "secret-1", now);
    const salt = "s4lt";
    const token = await md5Hex(`secret-1${salt}`);
    expect(await recall({ form: "token", username: "U1", token, salt }, now)).toBe(who);
    expect(
      await recall({ form: "token", username: "u1", token: token.replace(/.$/, "0"), salt }, now),
    ).toBeNull();
    expect(await recall({ form: "token", username: "u2", token, salt }, now)).toBeNull();
    expect(await recall({ form: "password", username: "u1", password: "secret-1" }, now)).toBe(who);
    expect(
      await recall({ form: "password", username: "u2", password: "secret-1" }, now),
    ).toBeNull();
    expect(await recall({ form: "apiKey", apiKey: "secret-1" }, now)).toBe(who);
    expect(await recall({ form: "apiKey", apiKey: "secret-2" }, now)).toBeNull();
  });

  it(`forgets after ${TTL_MS / 60_000} minutes, and keeps at most ${MAX_KNOWN} secrets`, async () => {
    forgetAll();
    const now = new Date();
    remember({ form: "apiKey", apiKey: "old" }, caller(0), "old", now);
    const later = new Date(now.getTime() + TTL_MS);
    expect(await recall({ form: "apiKey", apiKey: "old" }, later)).toBeNull();
    for (let n = 0; n <= MAX_KNOWN; n++) {
      remember({ form: "apiKey", apiKey: `k${n}` }, caller(n), `k${n}`, now);
    }
    expect(knownCount()).toBe(MAX_KNOWN);
    // The least recently used went first.
    expect(await recall({ form: "apiKey", apiKey: "k0" }, now)).toBeNull();
    expect(await recall({ form: "apiKey", apiKey: `k${MAX_KNOWN}` }, now)).not.toBeNull();
    forgetAll();
  });
});
