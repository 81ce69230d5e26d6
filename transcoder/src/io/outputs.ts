import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { trackKeys } from "@edge-music/contracts";
import type { TrackFileKind } from "@edge-music/db";
import { waveformFiles } from "../media/waveform.ts";
import type { UploadItem } from "./storage.ts";

export interface OutputFile extends UploadItem {
  kind: TrackFileKind;
  /** Kbps; null for the master playlist. */
  bitrate: number | null;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
// Playlists are small and name the segments: a short cache lets a re-conversion show up.
const PLAYLIST = "public, max-age=60";
const MEDIA = "audio/mp4";
const M3U8 = "application/vnd.apple.mpegurl";
const OPUS = "audio/ogg; codecs=opus";
const JSON_TYPE = "application/json";
const JPEG = "image/jpeg";

export interface OutputPlan {
  /**
   * Segments, init segments, Opus and whole AAC files: nothing refers to them until a playlist
   * (or the track's READY row) does.
   */
  media: OutputFile[];
  playlists: OutputFile[];
  master: OutputFile;
  /**
   * The waveform's JSON: uploaded with the media, but no `track_files` row (the row's kind is a
   * Postgres enum that has no value for it). It goes with the track's prefix like the rest.
   */
  waveform: UploadItem;
}

type Planned = Omit<OutputFile, "size">;
type PlannedUpload = Omit<UploadItem, "size">;

/**
 * Every object a conversion writes, where it comes from in the work folder and where it goes
 * (keys exactly as the contract lays them out), grouped in upload order.
 */
export function planOutputs(
  trackId: string,
  outDir: string,
  renditions: ReadonlyArray<{ rung: number; segments: number }>,
): { media: Planned[]; playlists: Planned[]; master: Planned; waveform: PlannedUpload } {
  const keys = trackKeys(trackId);
  const media: Planned[] = [];
  const playlists: Planned[] = [];
  for (const { rung, segments } of renditions) {
    const dir = `${outDir}/hls/${rung}`;
    const hls = { bitrate: rung, contentType: MEDIA, cacheControl: IMMUTABLE };
    media.push({ ...hls, kind: "hls_init", key: keys.init(rung), path: `${dir}/init_0.mp4` });
    for (let i = 0; i < segments; i++) {
      const name = `segment_${String(i).padStart(5, "0")}.m4s`;
      media.push({
        ...hls,
        kind: "hls_segment",
        key: keys.segment(rung, i),
        path: `${dir}/${name}`,
      });
    }
    media.push({
      kind: "opus",
      bitrate: rung,
      key: keys.opus(rung),
      path: `${outDir}/audio/${rung}k.opus`,
      contentType: OPUS,
      cacheControl: IMMUTABLE,
    });
    media.push({
      kind: "aac",
      bitrate: rung,
      key: keys.aac(rung),
      path: `${outDir}/audio/${rung}k.m4a`,
      contentType: MEDIA,
      cacheControl: IMMUTABLE,
    });
    playlists.push({
      kind: "hls_playlist",
      bitrate: rung,
      key: keys.playlist(rung),
      path: `${dir}/index.m3u8`,
      contentType: M3U8,
      cacheControl: PLAYLIST,
    });
  }
  const master: Planned = {
    kind: "hls_master",
    bitrate: null,
    key: keys.master,
    path: `${outDir}/hls/master.m3u8`,
    contentType: M3U8,
    cacheControl: PLAYLIST,
  };
  const waveform: PlannedUpload = {
    key: keys.waveform,
    path: waveformFiles(outDir).json,
    contentType: JSON_TYPE,
    cacheControl: IMMUTABLE,
  };
  return { media, playlists, master, waveform };
}

/** Adds each file's size (which must exist: a missing one is a bug, not bad input). */
export async function measureOutputs(plan: ReturnType<typeof planOutputs>): Promise<OutputPlan> {
  const sized = async <T extends PlannedUpload>(file: T): Promise<T & { size: number }> => ({
    ...file,
    size: (await stat(file.path)).size,
  });
  return {
    media: await Promise.all(plan.media.map(sized)),
    playlists: await Promise.all(plan.playlists.map(sized)),
    master: await sized(plan.master),
    waveform: await sized(plan.waveform),
  };
}

export interface CoverUpload extends UploadItem {
  /** What the track's `cover` holds: the key as the Worker's media path (`/static/covers/…`). */
  mediaPath: string;
}

/**
 * The cover taken from a source, stored where the Worker serves and deletes covers
 * (`static/covers/<uuid>.jpg`, its `mediaKey` shape), cached forever like an uploaded one. The
 * name comes from the track and its source instead of chance: every attempt at one conversion
 * writes the same object, so an attempt that stopped between the upload and the commit (a crash,
 * a lost reply from Postgres) leaves nothing behind; its retry overwrites it. One source gives
 * one picture, so the object under that name never changes.
 */
export function coverUpload(
  trackId: string,
  sourceKey: string,
  file: { path: string; size: number },
): CoverUpload {
  const hex = createHash("sha256").update(`cover\n${trackId}\n${sourceKey}`).digest("hex");
  // Shaped as an RFC 9562 UUID of version 8 (the custom one) and the RFC variant.
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  const uuid = [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `8${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join("-");
  const key = `static/covers/${uuid}.jpg`;
  return { ...file, key, mediaPath: `/${key}`, contentType: JPEG, cacheControl: IMMUTABLE };
}
