import { mediaKey } from "../../images/images.ts";
import { serveObject } from "../tracks/streaming/service.ts";
import { intArg, isUuid, required, uuidArg } from "./args.ts";
import { notFound } from "./errors.ts";
import { method } from "./method.ts";
import type { CoverKind } from "./model.ts";
import { audioFilesQuery, coverQuery } from "./queries.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/** What each kind of whole audio file is served as. */
const CONTENT_TYPES = { aac: "audio/mp4", opus: "audio/ogg" } as const;
type AudioKind = keyof typeof CONTENT_TYPES;

/**
 * The codec a `stream` serves: Opus in Ogg when the app asks for it (`format=opus` or `ogg`),
 * else AAC in one whole MP4 file (`audio/<kbps>k.m4a`, its index first), which every app's player
 * plays and seeks in (iOS's AVPlayer does not read Ogg). Any other `format` (mp3, raw, …) gets
 * AAC: nothing is transcoded on demand. A track converted before the whole AAC files existed has
 * only Opus, and streams that.
 */
export function preferredKind(format: string | undefined): AudioKind {
  return format === "opus" || format === "ogg" ? "opus" : "aac";
}

/**
 * The file to stream: of the preferred kind when the track has it (else the other), the highest
 * bitrate not above `maxBitRate` (kbps; 0 or absent: no limit), else the lowest there is.
 */
export function pickAudio<T extends { kind: string; bitrate: number | null }>(
  files: T[],
  preferred: AudioKind,
  maxBitRate?: number,
): T | undefined {
  const ofKind = files.filter((file) => file.kind === preferred);
  const candidates = ofKind.length > 0 ? ofKind : files;
  const sorted = [...candidates].sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0));
  const limit = maxBitRate && maxBitRate > 0 ? maxBitRate : Number.POSITIVE_INFINITY;
  return sorted.find((file) => (file.bitrate ?? 0) <= limit) ?? sorted.at(-1);
}

/**
 * `stream` and `download` alike: the whole audio file of a READY track (`download`: the highest
 * bitrate), bytes through the Worker with ranges. `timeOffset` is taken and ignored: files are
 * served as stored, and players seek in them by Range.
 */
const audio = (limitTaken: boolean) =>
  method({
    args: (params) => ({
      id: uuidArg(params, "id", "Song"),
      maxBitRate: limitTaken ? intArg(params, "maxBitRate") : undefined,
      kind: preferredKind(params.get("format")?.toLowerCase()),
    }),
    reads: (deps, args) => [audioFilesQuery(deps.db, args.id)],
    answer: async ({ deps, args, results, call }) => {
      const rows = results[0] as Rows<typeof audioFilesQuery>;
      const file = pickAudio(rows, args.kind, args.maxBitRate);
      if (!file) throw notFound("Song");
      // The bytes through the Worker, never a redirect: DSub does not follow one.
      return await serveObject(deps.storage, {
        key: file.key,
        range: call.range,
        ifNoneMatch: call.ifNoneMatch,
        contentType: CONTENT_TYPES[file.kind === "aac" ? "aac" : "opus"],
        missing: "The song's audio is missing.",
      });
    },
  });

export const mediaMethods = {
  stream: audio(true),
  // The source is not kept once converted: a download is the best we serve.
  download: audio(false),
  getCoverArt: method({
    args: (params) => {
      const id = required(params, "id");
      const match = /^(tr|al|ar)-(.+)$/.exec(id);
      if (!match?.[2] || !isUuid(match[2])) throw notFound("Cover art");
      return { kind: match[1] as CoverKind, id: match[2].toLowerCase() };
    },
    reads: (deps, args) => [coverQuery(deps.db, args.kind, args.id)],
    answer: async ({ deps, results, call }) => {
      const [row] = results[0] as Array<{ path: string | null }>;
      const key = mediaKey(row?.path);
      if (!key) throw notFound("Cover art");
      // `size` is taken and ignored: the stored image (at most 1200 × 1200) is answered, and
      // apps scale it.
      return await serveObject(deps.storage, {
        key,
        range: call.range,
        ifNoneMatch: call.ifNoneMatch,
        missing: "The cover art is missing.",
      });
    },
  }),
};
