// What the studio-editing browser tests share: the API as the signed-in page holds it (the
// context's cookies, the page's origin), READY tracks uploaded that way, and the media they
// need: a picture, and an MP3 that carries it as embedded cover art.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { promisify } from "node:util";
import type { BrowserContext } from "playwright-core";

const run = promisify(execFile);

/** A request to the API with the context's current cookies, sent as the page would send it. */
export async function apiAs(
  context: BrowserContext,
  apiUrl: string,
  path: string,
  init: { method?: string; json?: unknown; form?: FormData } = {},
): Promise<Response> {
  const cookies = await context.cookies(`${apiUrl}/api/v1/tracks`);
  const headers: Record<string, string> = {
    cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
    // The Worker's origin check: a write comes from the page's own origin.
    origin: apiUrl,
  };
  let body: BodyInit | undefined = init.form;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  return await fetch(`${apiUrl}${path}`, { method: init.method ?? "GET", headers, body });
}

/** The JSON answer of a request that must answer `status`; else it throws with the body. */
export async function expectJson<T>(answer: Promise<Response>, status = 200): Promise<T> {
  const response = await answer;
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`${response.url}: expected ${status}, got ${response.status}: ${text}`);
  }
  return JSON.parse(text) as T;
}

/** POST /tracks (the form upload) of a file on disk, as the signed-in artist: the track's id. */
export async function uploadAs(
  context: BrowserContext,
  apiUrl: string,
  file: string,
  title: string,
): Promise<string> {
  const form = new FormData();
  form.set("file", new File([await readFile(file)], basename(file), { type: "audio/mpeg" }));
  form.set("title", title);
  const track = await expectJson<{ id: string }>(
    apiAs(context, apiUrl, "/api/v1/tracks", { method: "POST", form }),
    202,
  );
  return track.id;
}

/** Reads the track as its owner until it is READY; throws at FAILED or after `timeoutMs`. */
export async function waitReadyAs(
  context: BrowserContext,
  apiUrl: string,
  id: string,
  timeoutMs = 120_000,
): Promise<{ duration: number | null; cover: string | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const track = await expectJson<{
      processingStatus: string;
      processingError: string | null;
      duration: number | null;
      cover: string | null;
    }>(apiAs(context, apiUrl, `/api/v1/tracks/${id}`));
    if (track.processingStatus === "READY") return track;
    if (track.processingStatus === "FAILED") throw new Error(`failed: ${track.processingError}`);
    if (Date.now() > deadline) throw new Error(`track ${id} not READY after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A test-pattern picture of `width`×`height`, encoded as its name says (.png, .jpg). */
export async function makePicture(file: string, width: number, height: number): Promise<void> {
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=${width}x${height}:d=1`],
    ...["-frames:v", "1", file],
  ]);
}

/**
 * `seconds` of a tone as an MP3 whose ID3v2.3 tag carries `picture` (a PNG) as its cover art (an
 * APIC frame, what taggers write).
 */
export async function makeMp3WithCover(
  file: string,
  seconds: number,
  picture: string,
): Promise<void> {
  await run("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", `sine=f=440:d=${seconds}`, "-i", picture],
    ...["-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "128k"],
    ...["-c:v", "png", "-id3v2_version", "3", "-disposition:v", "attached_pic", file],
  ]);
}

/** Seconds as the web player writes a running time: "1:00", "1:02:09". */
export function runningTime(seconds: number): string {
  const s = Math.floor(seconds);
  const mmss = (n: number) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
  if (s < 3600) return mmss(s);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}
