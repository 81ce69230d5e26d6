import { join } from "node:path";
import type { AudioJobPayload } from "@edge-music/contracts";
import { type CoverUpload, coverUpload } from "../io/outputs.ts";
import type { TrackStore } from "../io/track-store.ts";
import { log } from "../log.ts";
import { extractCover } from "../media/cover.ts";
import type { SourceFile } from "../media/ffmpeg/args.ts";
import type { SourceInfo } from "../media/probe.ts";

export interface EmbeddedCoverInput {
  payload: AudioJobPayload;
  source: SourceFile;
  info: SourceInfo;
  /** The conversion's work folder. */
  work: string;
  store: TrackStore;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/**
 * The cover art inside the upload, ready to store as the track's cover: only when the file has
 * a picture and the track no cover (the artist's own, given with the upload, is never replaced;
 * one given later wins at the commit, see TrackStore.complete). Null otherwise, and when the
 * picture cannot be used: logged and skipped, never a reason to fail the conversion.
 */
export async function embeddedCover(input: EmbeddedCoverInput): Promise<CoverUpload | null> {
  const { payload, info } = input;
  if (!info.picture || (await input.store.hasCover(payload.trackId))) return null;
  const result = await extractCover({
    source: input.source,
    picture: info.picture,
    output: join(input.work, "cover.jpg"),
    timeoutMs: input.timeoutMs,
    signal: input.signal,
  });
  if ("skipped" in result) {
    log.warn("embedded cover skipped", { trackId: payload.trackId, reason: result.skipped });
    return null;
  }
  return coverUpload(payload.trackId, payload.sourceKey, result);
}
