import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { trackKeys, WAVEFORM_POINTS, Waveform } from "@edge-music/contracts";
import { expect } from "vitest";
import type { Harness } from "./harness.ts";

const exec = promisify(execFile);

/**
 * The objects a READY track must have in storage, and only those, keyed as the contract says: one
 * `track_files` row each, except the waveform (its kind is not in the database's enum).
 */
export async function expectOutputs(h: Harness, trackId: string, rungs: number[]) {
  const keys = trackKeys(trackId);
  const objects = await h.listObjects(keys.prefix);
  const segmentsOf = (rung: number) =>
    objects.filter((o) => o.key.startsWith(`${keys.prefix}hls/${rung}/segment_`)).length;
  const segments = segmentsOf(rungs[0] ?? 0);
  expect(segments).toBeGreaterThan(0);
  const expected = [keys.master, keys.waveform];
  for (const rung of rungs) {
    // Aligned renditions: the same number of segments in each.
    expect(segmentsOf(rung)).toBe(segments);
    expected.push(keys.opus(rung), keys.aac(rung), keys.playlist(rung), keys.init(rung));
    for (let i = 0; i < segments; i++) expected.push(keys.segment(rung, i));
  }
  expect(objects.map((o) => o.key)).toEqual(expected.sort((a, b) => a.localeCompare(b)));
  for (const o of objects) expect(o.size, o.key).toBeGreaterThan(0);

  // One row per object but the waveform, with its size, kind and bitrate.
  const rows = await h.fileRows(trackId);
  const byKey = new Map(rows.map((r) => [r.storageKey, r]));
  expect(rows).toHaveLength(objects.length - 1);
  expect(byKey.has(keys.waveform)).toBe(false);
  for (const o of objects) {
    if (o.key === keys.waveform) continue;
    const row = byKey.get(o.key);
    expect(row, o.key).toBeDefined();
    expect(row?.sizeBytes, o.key).toBe(o.size);
    expect(row?.kind, o.key).toBe(kindOf(o.key));
    expect(row?.bitrate, o.key).toBe(o.key === keys.master ? null : rungOf(o.key));
  }
  const waveform = await getWaveform(h, trackId);
  return { objects, rows, segments, waveform };
}

/** The stored waveform, checked against the contract: WAVEFORM_POINTS peaks. */
export async function getWaveform(h: Harness, trackId: string): Promise<Waveform> {
  const waveform = Waveform.parse(JSON.parse(await getText(h, trackKeys(trackId).waveform)));
  expect(waveform.points).toBe(WAVEFORM_POINTS);
  expect(waveform.peaks).toHaveLength(WAVEFORM_POINTS);
  return waveform;
}

function kindOf(key: string) {
  if (key.endsWith(".opus")) return "opus";
  if (key.endsWith(".m4a")) return "aac";
  if (key.endsWith("master.m3u8")) return "hls_master";
  if (key.endsWith(".m3u8")) return "hls_playlist";
  if (key.endsWith("init_0.mp4")) return "hls_init";
  return "hls_segment";
}

const rungOf = (key: string) => Number(/\/(\d+)(?:k\.opus|k\.m4a|\/)/.exec(key)?.[1]);

export async function getText(h: Harness, key: string): Promise<string> {
  const object = await h.storage.client.send(new GetObjectCommand({ Bucket: h.bucket, Key: key }));
  return (await object.Body?.transformToString()) ?? "";
}

export async function getBytes(h: Harness, key: string): Promise<Uint8Array> {
  const object = await h.storage.client.send(new GetObjectCommand({ Bucket: h.bucket, Key: key }));
  return (await object.Body?.transformToByteArray()) ?? new Uint8Array();
}

/** The types of an MP4 file's top-level boxes, in order (32-bit sizes; 1 = a 64-bit size). */
export function topLevelBoxes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size32 = view.getUint32(at);
    const size = size32 === 1 ? Number(view.getBigUint64(at + 8)) : size32;
    types.push(new TextDecoder().decode(bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return types;
}

export async function head(h: Harness, key: string) {
  return await h.storage.client.send(new HeadObjectCommand({ Bucket: h.bucket, Key: key }));
}

/**
 * Copies the track's objects into `dir` and plays the master playlist with ffmpeg, as a player
 * would (every referenced file must exist and decode). Returns the decoded duration in seconds.
 */
export async function playFromStorage(h: Harness, trackId: string, dir: string): Promise<number> {
  const prefix = trackKeys(trackId).prefix;
  for (const { key } of await h.listObjects(prefix)) {
    const object = await h.storage.client.send(
      new GetObjectCommand({ Bucket: h.bucket, Key: key }),
    );
    const path = join(dir, key.slice(prefix.length));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, (await object.Body?.transformToByteArray()) ?? new Uint8Array());
  }
  const { stderr } = await exec("ffmpeg", [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    "-stats",
    "-xerror",
    "-i",
    join(dir, "hls/master.m3u8"),
    "-map",
    "0:a:0",
    "-f",
    "null",
    "-",
  ]);
  const time = /time=(\d+):(\d+):(\d+\.\d+)/g;
  let last = 0;
  for (const m of stderr.matchAll(time))
    last = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  return last;
}
