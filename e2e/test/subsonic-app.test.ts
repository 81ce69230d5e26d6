// A real Subsonic app against the local stack: Sublime Music's own Subsonic adapter (the code
// the desktop app runs, from Debian's `sublime-music` package, installed by scripts/setup.sh)
// browses, searches, streams with a range, scrobbles, edits playlists and saves the play queue
// with an app password; what it did then shows in the REST API (issue 30).
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CookieJar, createClient } from "@edge-music/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerArtist, uploadTrack, waitUntilReady } from "./support/api.ts";
import { type LocalStack, startLocalStack } from "./support/local-stack.ts";
import { makeMp3Source } from "./support/media.ts";

/** Debian's Python, where the app's package is (not whichever python3 is first on PATH). */
const PYTHON = "/usr/bin/python3";
const CHECK = join(import.meta.dirname, "..", "apps", "sublime_music_check.py");

let stack: LocalStack;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "edge-music-e2e-app-"));
  [stack] = await Promise.all([startLocalStack(), makeMp3Source(join(work, "a.mp3"), 6)]);
});

afterAll(async () => {
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs the app's adapter; its JSON report, or the failure with what it printed. */
function runApp(env: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [CHECK],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the app's check failed: ${stdout}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}"));
      },
    );
  });
}

describe("Sublime Music's Subsonic adapter against the stack", () => {
  it("browses, searches, streams, scrobbles, edits playlists and saves the queue; the REST API shows it", async () => {
    const { apiUrl } = stack;
    const artist = await registerArtist(apiUrl);
    const uploads = await Promise.all(
      ["App one", "App two"].map((title) =>
        uploadTrack(apiUrl, artist, join(work, "a.mp3"), title),
      ),
    );
    const songs = uploads.map(({ track }) => track.id);
    for (const id of songs) await waitUntilReady(apiUrl, artist, id, 120_000);

    const jar = new CookieJar();
    const api = createClient({ baseUrl: apiUrl, kind: "user", fetch: jar.fetch });
    const username = `app_${crypto.randomUUID().slice(0, 8)}`;
    const registered = await api.POST("/api/v1/users/auth/register", {
      body: { username, email: `${username}@example.test`, password: `pw-${crypto.randomUUID()}` },
    });
    expect(registered.response.status).toBe(201);
    const made = await api.POST("/api/v1/users/me/app-passwords", { body: { name: "Sublime" } });
    expect(made.response.status).toBe(201);

    const seen = await runApp({
      SUBSONIC_SERVER: apiUrl,
      SUBSONIC_USERNAME: username,
      SUBSONIC_PASSWORD: made.data?.password ?? "",
      SONG_IDS: songs.join(","),
    });
    const [first, second] = songs as [string, string];
    expect(seen).toMatchObject({
      ping: 1,
      version: "1.16.1",
      song: { id: first, title: "App one", album_id: `single-${first}` },
      album: { songs: [first] },
      album_lists: { RANDOM: 2, NEWEST: 2, ALPHABETICAL_BY_NAME: 2, STARRED: 0 },
      indexes: 1,
      directory: 2,
      // AAC in one MP4 file, whole and by range.
      stream: { status: 200, type: "audio/mp4", range_status: 206, range_length: 1024 },
      download: { status: 200 },
      created: { songs: 1 },
      updated: {
        name: "Sublime road",
        comment: "Made in an app",
        public: true,
        songs: [first, second],
      },
      reordered: [second, first],
      playlists: ["Sublime road"],
      play_queue: { songs: [first, second], current: 1, position: 3 },
      after_delete: ["Sublime road"],
    });
    expect(seen.search).toContain(first);
    expect((seen.artist as { albums: string[] }).albums.sort()).toEqual(
      [`single-${first}`, `single-${second}`].sort(),
    );

    // What the app did is the listener's, in the REST API.
    const playlists = await api.GET("/api/v1/playlists/me");
    expect(playlists.data?.map((p) => [p.title, p.isPublic])).toEqual([["Sublime road", true]]);
    const history = await api.GET("/api/v1/history");
    expect(history.data?.map((entry) => entry.trackId)).toEqual([first]);
    const queue = await api.GET("/api/v1/users/me/play-queue");
    expect(queue.data?.tracks.map((track) => track.id)).toEqual([first, second]);
    expect(queue.data?.current).toBe(second);
  });
});
