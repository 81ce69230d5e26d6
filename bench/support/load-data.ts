// The data of the load benchmark beyond the seeded catalogue: READY tracks with real HLS files
// (uploaded and converted), the registered users' own activity, and the ids the mix draws from.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { DevWorker } from "@edge-music/stack";
import { type Session, sessionCookie } from "./load-accounts.ts";
import type { MixData } from "./load-mix.ts";
import { type HlsFiles, hlsFiles, makeSource, uploadTrack, waitConverted } from "./load-tracks.ts";
import type { SqlClient } from "./seed.ts";
import { giveFollows, giveListens, givePlaylists } from "./seed-accounts.ts";

/** Uploads the streaming tracks as `artist` and waits until the transcoder has made them READY. */
export async function streamableTracks(
  worker: DevWorker,
  artist: Session,
  client: SqlClient,
  tmp: string,
  count: number,
): Promise<HlsFiles[]> {
  await mkdir(join(tmp, "sources"), { recursive: true });
  const source = await makeSource(join(tmp, "sources", "stream-48s.mp3"), 48);
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const cookie = await sessionCookie(worker.url, artist);
    const upload = await uploadTrack(
      worker.url,
      cookie,
      artist.ip,
      source,
      `Stream ${i}`,
      `load-setup-${i}`,
    );
    if (!upload.trackId) throw new Error(`upload: ${upload.status} ${upload.body}`);
    ids.push(upload.trackId);
  }
  const started = performance.now();
  const states = await waitConverted(client, ids, 10 * 60_000);
  const notReady = ids.filter((id) => states.get(id)?.status !== "READY");
  if (notReady.length > 0) throw new Error(`not READY: ${JSON.stringify([...states])}`);
  const took = ((performance.now() - started) / 1000).toFixed(1);
  const files = await Promise.all(ids.map((id) => hlsFiles(worker.url, id)));
  const segments = files.reduce((n, f) => n + f.segments.length, 0);
  console.log(
    `${count} streamable tracks converted in ${took} s: ${files[0]?.indexes.length} renditions, ${segments} segments in all`,
  );
  return files;
}

/** Listeners as they come: most with a short history, one in ten with a long one. */
export async function giveActivity(client: SqlClient, sessions: Session[]): Promise<void> {
  for (const [i, { id }] of sessions.entries()) {
    const heavy = i % 10 === 0;
    await giveListens(client, id, heavy ? 2_000 : 100, heavy ? 800 : 60);
    await givePlaylists(client, id, heavy ? 20 : 5);
    await giveFollows(client, id, heavy ? 100 : 20);
  }
  await client.query("ANALYZE listening_history, playlists, playlist_tracks, follows");
}

/** Ids the mix draws from: 5,000 of each kind, at random. */
export async function mixData(client: SqlClient, hls: HlsFiles[]): Promise<MixData> {
  const ids = async (sql: string) =>
    (await client.query<{ id: string }>(`${sql} ORDER BY random() LIMIT 5000`)).rows.map(
      (r) => r.id,
    );
  return {
    trackIds: await ids("SELECT id FROM tracks WHERE processing_status = 'READY'"),
    artistIds: await ids("SELECT id FROM artists"),
    publicPlaylistIds: await ids("SELECT id FROM playlists WHERE is_public"),
    hls,
  };
}
