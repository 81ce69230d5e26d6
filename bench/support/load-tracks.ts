// Tracks made the way an artist makes them: an audio file uploaded through POST /api/v1/tracks
// (multipart), converted by the real transcoder into Opus files and an HLS ladder in the S3
// store; then the HLS files of each READY track, as a player finds them from the master playlist.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
// Relative: the transcoder's test helpers are not a package (as in transcode.bench.ts).
import { makeAudio } from "../../transcoder/test/support/sources.ts";
import type { SqlClient } from "./seed.ts";

/** `seconds` of music-like audio as a 320 kbps MP3 (every rung of the ladder: 128, 192, 320). */
export async function makeSource(file: string, seconds: number): Promise<string> {
  await makeAudio(file, seconds, ["-c:a", "libmp3lame", "-b:a", "320k"]);
  return file;
}

export interface Upload {
  status: number;
  ms: number;
  requestId: string;
  trackId?: string;
  /** performance.now() when the answer came. */
  at: number;
  body: string;
}

/** POST /api/v1/tracks as the artist whose `cookie` this is: `file` and `title`. */
export async function uploadTrack(
  baseUrl: string,
  cookie: string,
  ip: string,
  source: string,
  title: string,
  requestId: string,
): Promise<Upload> {
  const form = new FormData();
  form.set("title", title);
  const bytes = await readFile(source);
  form.set("file", new File([bytes], basename(source), { type: "audio/mpeg" }));
  const sent = performance.now();
  try {
    const answer = await fetch(`${baseUrl}/api/v1/tracks`, {
      method: "POST",
      headers: { cookie, "cf-connecting-ip": ip, "x-request-id": requestId },
      body: form,
    });
    const body = await answer.text();
    const at = performance.now();
    const trackId = answer.status === 202 ? (JSON.parse(body) as { id: string }).id : undefined;
    return {
      status: answer.status,
      ms: at - sent,
      requestId,
      at,
      body,
      ...(trackId ? { trackId } : {}),
    };
  } catch (error) {
    const at = performance.now();
    return { status: 0, ms: at - sent, requestId, at, body: String(error) };
  }
}

export interface Conversion {
  status: string;
  error: string | null;
  /** performance.now() when the track was first seen out of PROCESSING. */
  doneAt?: number;
}

/**
 * Polls the tracks' rows (not the API: the figures under load must not count the polling) until
 * none is PROCESSING or `timeoutMs` has passed; returns each track's state and when it changed.
 */
export async function waitConverted(
  client: SqlClient,
  trackIds: string[],
  timeoutMs: number,
): Promise<Map<string, Conversion>> {
  const states = new Map<string, Conversion>();
  const deadline = performance.now() + timeoutMs;
  while (trackIds.length > 0) {
    const { rows } = await client.query<{
      id: string;
      processing_status: string;
      processing_error: string | null;
    }>("SELECT id, processing_status, processing_error FROM tracks WHERE id = ANY($1::uuid[])", [
      trackIds,
    ]);
    for (const row of rows) {
      const known = states.get(row.id);
      if (known?.doneAt !== undefined) continue;
      const done = row.processing_status !== "PROCESSING";
      states.set(row.id, {
        status: row.processing_status,
        error: row.processing_error,
        ...(done ? { doneAt: performance.now() } : {}),
      });
    }
    const pending = trackIds.filter((id) => states.get(id)?.doneAt === undefined);
    if (pending.length === 0 || performance.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return states;
}

export interface HlsFiles {
  master: string;
  indexes: string[];
  inits: string[];
  segments: string[];
}

const uris = (playlist: string) =>
  playlist
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

/** The paths a player fetches for a READY track, read from its master and media playlists. */
export async function hlsFiles(baseUrl: string, trackId: string): Promise<HlsFiles> {
  const base = `/api/v1/tracks/stream/${trackId}/hls`;
  const get = async (path: string) => {
    const answer = await fetch(`${baseUrl}${path}`);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
    return answer.text();
  };
  const files: HlsFiles = { master: `${base}/master.m3u8`, indexes: [], inits: [], segments: [] };
  for (const variant of uris(await get(files.master))) {
    const index = `${base}/${variant}`;
    const folder = index.slice(0, index.lastIndexOf("/"));
    const playlist = await get(index);
    files.indexes.push(index);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
    if (init) files.inits.push(`${folder}/${init}`);
    for (const segment of uris(playlist)) files.segments.push(`${folder}/${segment}`);
  }
  return files;
}
