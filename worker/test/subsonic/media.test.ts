import { tracks } from "@edge-music/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pickAudio, preferredKind } from "../../src/features/subsonic/media.ts";
import { historyOf } from "../history/support.ts";
import { app } from "../support/auth.ts";
import { textOf } from "../support/body.ts";
import { send } from "../support/env.ts";
import { IMAGE_BYTES, withDb } from "../support/factories.ts";
import { bucket } from "../tracks/form-upload/support.ts";
import {
  type Answer,
  appAccount,
  call,
  catalogue,
  errorCode,
  json,
  withAac,
  withOpus,
} from "./support.ts";

describe("Subsonic media", () => {
  it("pickAudio: the kind asked for when there is one; the highest not above maxBitRate, else the lowest", () => {
    const opus = [64, 192, 128].map((bitrate) => ({ kind: "opus", bitrate }));
    const files = [...opus, { kind: "aac", bitrate: 128 }, { kind: "aac", bitrate: 192 }];
    expect(pickAudio(files, "aac")).toEqual({ kind: "aac", bitrate: 192 });
    expect(pickAudio(files, "aac", 0)).toEqual({ kind: "aac", bitrate: 192 });
    expect(pickAudio(files, "aac", 160)).toEqual({ kind: "aac", bitrate: 128 });
    expect(pickAudio(files, "aac", 32)).toEqual({ kind: "aac", bitrate: 128 });
    expect(pickAudio(files, "opus", 160)).toEqual({ kind: "opus", bitrate: 128 });
    expect(pickAudio(files, "opus", 32)).toEqual({ kind: "opus", bitrate: 64 });
    // Only Opus (converted before the whole AAC files): Opus, whatever is preferred.
    expect(pickAudio(opus, "aac")).toEqual({ kind: "opus", bitrate: 192 });
    expect(pickAudio([], "aac", 128)).toBeUndefined();
    expect(["opus", "ogg", "mp3", "raw", "aac", undefined].map(preferredKind)).toEqual([
      "opus",
      "opus",
      "aac",
      "aac",
      "aac",
      "aac",
    ]);
  });

  it("stream: the AAC file (or Opus on request) through the Worker at the bitrate asked, with ranges; never a redirect", async () => {
    const { first, second, converting } = await catalogue();
    await withOpus(first.id, [64, 128, 192]);
    await withAac(first.id, [128, 192]);
    await withOpus(second.id, [128]);
    await withAac(converting.id, [128]);
    const account = await appAccount();
    const auth = { apiKey: account.appPassword };

    const whole = await call("stream", { ...auth, id: first.id });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mp4");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-length")).toBe("1000");
    expect((await textOf(whole)).startsWith("M4A-192-")).toBe(true);

    const lower = await call("stream", { ...auth, id: first.id, maxBitRate: "128" });
    expect((await textOf(lower)).startsWith("M4A-128-")).toBe(true);
    // What the app asks for by `format`: Opus in Ogg on request, AAC for anything else.
    const opus = await call("stream", { ...auth, id: first.id, format: "opus", maxBitRate: "64" });
    expect(opus.headers.get("content-type")).toBe("audio/ogg");
    expect((await textOf(opus)).startsWith("OggS-64-")).toBe(true);
    const mp3 = await call("stream", { ...auth, id: first.id, format: "mp3" });
    expect((await textOf(mp3)).startsWith("M4A-192-")).toBe(true);
    // A track with Opus only streams Opus.
    const older = await call("stream", { ...auth, id: second.id });
    expect(older.headers.get("content-type")).toBe("audio/ogg");
    expect((await textOf(older)).startsWith("OggS-128-")).toBe(true);

    // download: the best we keep (the source is not kept once converted), whatever is asked.
    const download = await call("download", { ...auth, id: first.id, maxBitRate: "64" });
    expect(download.status).toBe(200);
    expect((await textOf(download)).startsWith("M4A-192-")).toBe(true);

    // A player may ask for the size first.
    const head = await send(app, `/rest/stream?apiKey=${account.appPassword}&id=${first.id}`, {
      method: "HEAD",
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("1000");
    expect(await textOf(head)).toBe("");

    const part = await call(
      "stream",
      { ...auth, id: first.id },
      { headers: { range: "bytes=0-7" } },
    );
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-7/1000");
    expect(await textOf(part)).toBe("M4A-192-");

    const past = await call(
      "stream",
      { ...auth, id: first.id },
      { headers: { range: "bytes=5000-" } },
    );
    expect(past.status).toBe(416);

    // Unfinished tracks never stream, whatever is in storage.
    expect(await errorCode(await call("stream", { ...auth, id: converting.id, f: "json" }))).toBe(
      70,
    );
    expect(
      await errorCode(await call("stream", { ...auth, id: crypto.randomUUID(), f: "json" })),
    ).toBe(70);
    // Credentials are checked before any byte.
    expect(
      await errorCode(await call("stream", { apiKey: "wrong", id: first.id, f: "json" })),
    ).toBe(44);
  });

  it("getCoverArt: the stored image of a track, an album or an artist; 70 without one", async () => {
    const { first, single, artist } = await catalogue();
    const path = `/static/covers/${crypto.randomUUID()}.png`;
    await bucket().put(path.slice(1), IMAGE_BYTES.png, {
      httpMetadata: { contentType: "image/png" },
    });
    await withDb((db) => db.update(tracks).set({ cover: path }).where(eq(tracks.id, single.id)));
    const account = await appAccount();
    const auth = { apiKey: account.appPassword };

    const cover = await call("getCoverArt", { ...auth, id: `tr-${single.id}`, size: "300" });
    expect(cover.status).toBe(200);
    expect(cover.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await cover.arrayBuffer())).toEqual(IMAGE_BYTES.png);

    for (const id of [`tr-${first.id}`, `ar-${artist.id}`, `al-${crypto.randomUUID()}`, "x-1"]) {
      expect(await errorCode(await call("getCoverArt", { ...auth, id, f: "json" }))).toBe(70);
    }
  });

  it("scrobble: a play is an entry of the listening history in the REST API; now playing is not", async () => {
    const { first, converting } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f: "json" };
    expect(
      await errorCode(await call("scrobble", { ...auth, id: first.id, submission: "false" })),
    ).toBeUndefined();
    expect(await historyOf(account.client)).toEqual([]);
    expect(await errorCode(await call("scrobble", { ...auth, id: first.id }))).toBeUndefined();
    const history = await historyOf(account.client);
    expect(history.map((entry) => entry.track.id)).toEqual([first.id]);
    expect(await errorCode(await call("scrobble", { ...auth, id: converting.id }))).toBe(70);
    expect(await errorCode(await call("scrobble", auth))).toBe(10);
  });

  it("now playing (submission=false) is the listener's own, while the song can still be playing", async () => {
    const { first, second, converting } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f: "json" };
    const nowPlaying = async (who = auth) =>
      ((await json(await call("getNowPlaying", who))).nowPlaying.entry ?? []) as Answer[];
    expect(await nowPlaying()).toEqual([]);

    const playing = { ...auth, id: first.id, submission: "false", c: "DSub" };
    expect(await errorCode(await call("scrobble", playing))).toBeUndefined();
    expect(await nowPlaying()).toEqual([
      expect.objectContaining({
        id: first.id,
        username: account.username,
        minutesAgo: 0,
        playerId: 0,
        playerName: "DSub",
      }),
    ]);
    // The next song replaces it; an unknown one is refused and changes nothing.
    const next = { ...auth, id: second.id, submission: "false", c: "DSub" };
    expect(await errorCode(await call("scrobble", next))).toBeUndefined();
    const unknown = { ...auth, id: converting.id, submission: "false" };
    expect(await errorCode(await call("scrobble", unknown))).toBe(70);
    expect((await nowPlaying()).map((entry) => entry.id)).toEqual([second.id]);

    // Another listener never sees it.
    const other = await appAccount();
    expect(await nowPlaying({ apiKey: other.appPassword, f: "json" })).toEqual([]);
    // Once the song (and a minute) has had time to end, it is no longer playing.
    await withDb((db) =>
      db.execute(
        sql`update now_playing set started_at = now() - interval '1 hour' where user_id = ${account.id}`,
      ),
    );
    expect(await nowPlaying()).toEqual([]);
  });
});
