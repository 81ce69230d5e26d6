import { trackKeys, VARIANT_BITRATES } from "@edge-music/contracts";
import { type Database, type Track, type TrackFile, trackFiles, tracks } from "@edge-music/db";
import type { S3Config } from "@edge-music/stack";
import { listObjects, type StoredObject, storageClient } from "./storage.ts";

/**
 * What must hold once every fault is over, read from the database and the store directly:
 * - no track is PROCESSING;
 * - a READY track has exactly the objects the contract lays out for its rungs (master, and per
 *   rung a playlist, an init segment, the same number of segments, an Opus file), each with one
 *   track_files row of the right kind and size, and its waveform (an object without a row, ADR
 *   0018); its source is gone;
 * - a FAILED track says why, has no file rows, and keeps only its source (for a retry) and
 *   objects of the contract's layout (outputs of an attempt that failed while publishing);
 * - no object under `tracks/` belongs to a track that does not exist.
 * Returns the problems found, one line each (an empty list when consistent).
 */
export async function findInconsistencies(db: Database, s3: S3Config): Promise<string[]> {
  const client = storageClient(s3);
  try {
    const rows = await db.select().from(tracks);
    const files = await db.select().from(trackFiles);
    const objects = await listObjects(client, s3.bucket, "tracks/");
    const problems: string[] = [];
    for (const track of rows) {
      const prefix = trackKeys(track.id).prefix;
      const own = objects.filter((o) => o.key.startsWith(prefix));
      const fileRows = files.filter((f) => f.trackId === track.id);
      problems.push(...checkTrack(track, fileRows, own).map((p) => `track ${track.id}: ${p}`));
    }
    const known = new Set(rows.map((t) => t.id));
    for (const object of objects) {
      const trackId = object.key.split("/")[1] ?? "";
      if (!known.has(trackId)) problems.push(`orphan object ${object.key} (no such track)`);
    }
    return problems;
  } finally {
    client.destroy();
  }
}

function checkTrack(track: Track, rows: TrackFile[], objects: StoredObject[]): string[] {
  switch (track.processingStatus) {
    case "PROCESSING":
      return [`still PROCESSING (progress ${track.processingProgress})`];
    case "FAILED": {
      const problems: string[] = [];
      if (!track.processingError) problems.push("FAILED without a processingError");
      if (rows.length > 0) problems.push(`FAILED with ${rows.length} track_files rows`);
      // Outputs of an attempt that failed while publishing may stay (unserved, and deleted with
      // the track's prefix); anything outside the contract's layout may not.
      const foreign = objects.filter(
        (o) => o.key !== track.sourceKey && !isLayoutKey(track.id, o.key),
      );
      if (foreign.length > 0)
        problems.push(`FAILED with foreign objects: ${foreign.map((o) => o.key)}`);
      return problems;
    }
    case "READY":
      return checkReady(track, rows, objects);
  }
}

function checkReady(track: Track, rows: TrackFile[], objects: StoredObject[]): string[] {
  const problems: string[] = [];
  if (track.sourceKey !== null) problems.push(`READY but sourceKey still ${track.sourceKey}`);
  if (track.processingError !== null) problems.push(`READY with error ${track.processingError}`);
  if (!(Number(track.duration) > 0)) problems.push(`READY with duration ${track.duration}`);

  const expected = expectedLayout(track.id, rows);
  if (typeof expected === "string") return [...problems, expected];
  const rowKeys = rows.map((r) => r.storageKey).sort();
  if (new Set(rowKeys).size !== rowKeys.length) problems.push("duplicate track_files rows");
  const missingRows = [...expected.keys()].filter((key) => !rowKeys.includes(key));
  const strayRows = rowKeys.filter((key) => !expected.has(key));
  if (missingRows.length > 0) problems.push(`no track_files row for ${missingRows}`);
  if (strayRows.length > 0) problems.push(`rows outside the layout: ${strayRows}`);
  for (const row of rows) {
    if (expected.get(row.storageKey) !== row.kind) {
      problems.push(`row ${row.storageKey} has kind ${row.kind}`);
    }
  }

  const stored = new Map(objects.map((o) => [o.key, o.size]));
  for (const row of rows) {
    const size = stored.get(row.storageKey);
    if (size === undefined) problems.push(`READY but ${row.storageKey} is missing from storage`);
    else if (size !== row.sizeBytes) {
      problems.push(`${row.storageKey}: ${size} bytes stored, ${row.sizeBytes} recorded`);
    }
  }
  const waveform = trackKeys(track.id).waveform;
  if (!stored.has(waveform)) problems.push(`READY but ${waveform} is missing from storage`);
  const unrecorded = objects
    .filter((o) => !rowKeys.includes(o.key) && o.key !== waveform)
    .map((o) => o.key);
  if (unrecorded.length > 0) problems.push(`objects without a row: ${unrecorded}`);
  return problems;
}

/**
 * The keys (and kinds) the contract prescribes for the rungs the rows name, with as many
 * segments per rung as the rows record; renditions are aligned, so every rung has the same count.
 */
function expectedLayout(trackId: string, rows: TrackFile[]): Map<string, string> | string {
  const rungs = [...new Set(rows.map((r) => r.bitrate).filter((b) => b !== null))].sort(
    (a, b) => a - b,
  );
  if (rungs.length === 0) return "READY without any rendition";
  if (rungs.some((r) => !(VARIANT_BITRATES as readonly number[]).includes(r))) {
    return `READY with rungs outside the variant bitrates: ${rungs}`;
  }
  const segmentCounts = rungs.map(
    (rung) => rows.filter((r) => r.kind === "hls_segment" && r.bitrate === rung).length,
  );
  const segments = segmentCounts[0] ?? 0;
  if (segments === 0 || segmentCounts.some((n) => n !== segments)) {
    return `READY with segment counts ${segmentCounts} for rungs ${rungs}`;
  }
  const keys = trackKeys(trackId);
  const layout = new Map<string, string>([[keys.master, "hls_master"]]);
  for (const rung of rungs) {
    layout.set(keys.playlist(rung), "hls_playlist");
    layout.set(keys.init(rung), "hls_init");
    layout.set(keys.opus(rung), "opus");
    layout.set(keys.aac(rung), "aac");
    for (let i = 0; i < segments; i++) layout.set(keys.segment(rung, i), "hls_segment");
  }
  return layout;
}

/** Whether `key` is one of the output keys the contract can give a track, for any rung. */
function isLayoutKey(trackId: string, key: string): boolean {
  const keys = trackKeys(trackId);
  if (key === keys.master || key === keys.waveform) return true;
  return VARIANT_BITRATES.some((rung) => {
    const segment = keys.segment(rung, 0).replace(/00000\.m4s$/, "");
    return (
      [keys.playlist(rung), keys.init(rung), keys.opus(rung), keys.aac(rung)].includes(key) ||
      (key.startsWith(segment) && /^\d{5}\.m4s$/.test(key.slice(segment.length)))
    );
  });
}
