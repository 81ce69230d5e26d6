import { mediaKey } from "../../images/images.ts";
import { serveObject } from "../tracks/streaming/service.ts";
import { intArg, isUuid, required, uuidArg } from "./args.ts";
import { notFound } from "./errors.ts";
import { method } from "./method.ts";
import type { CoverKind } from "./model.ts";
import { coverQuery, opusFilesQuery } from "./queries.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/**
 * The Opus file to stream: the highest bitrate not above `maxBitRate` (kbps; 0 or absent: no
 * limit), else the lowest there is. Opus in Ogg plays in the apps' players (Android natively,
 * iOS since 17); the AAC renditions (HLS fMP4) are not served through this door yet.
 */
export function pickOpus<T extends { bitrate: number | null }>(files: T[], maxBitRate?: number) {
  const sorted = [...files].sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0));
  const limit = maxBitRate && maxBitRate > 0 ? maxBitRate : Number.POSITIVE_INFINITY;
  return sorted.find((file) => (file.bitrate ?? 0) <= limit) ?? sorted.at(-1);
}

/** `stream` and `download` alike: the Opus bytes of a READY track (`download`: the highest). */
const audio = (limitTaken: boolean) =>
  method({
    args: (params) => ({
      id: uuidArg(params, "id", "Song"),
      maxBitRate: limitTaken ? intArg(params, "maxBitRate") : undefined,
    }),
    reads: (deps, args) => [opusFilesQuery(deps.db, args.id)],
    answer: async ({ deps, args, results, call }) => {
      const file = pickOpus(results[0] as Rows<typeof opusFilesQuery>, args.maxBitRate);
      if (!file) throw notFound("Song");
      // The bytes through the Worker, never a redirect: DSub does not follow one.
      return await serveObject(deps.storage, {
        key: file.key,
        range: call.range,
        ifNoneMatch: call.ifNoneMatch,
        contentType: "audio/ogg",
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
