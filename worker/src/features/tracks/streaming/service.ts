import { type Queryable, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import {
  AppError,
  NotFoundError,
  RangeNotSatisfiableError,
  ServiceUnavailableError,
  TrackNotReadyError,
} from "../../../errors/app-error.ts";
import type { ObjectStorage } from "../../../storage/index.ts";
import { parseRange } from "./range.ts";

/** Streams only once conversion has finished; unknown and unfinished tracks answer 404. */
export async function assertStreamable(db: Queryable, trackId: string): Promise<void> {
  const [track] = await db
    .select({ status: tracks.processingStatus })
    .from(tracks)
    .where(eq(tracks.id, trackId));
  if (!track) throw new NotFoundError("No such track.");
  if (track.status !== "READY") throw new TrackNotReadyError(track.status);
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  m4s: "audio/mp4",
  mp4: "audio/mp4",
  opus: "audio/ogg; codecs=opus",
};

export interface ServeOptions {
  key: string;
  range: string | undefined;
  ifNoneMatch: string | undefined;
}

/**
 * Whether an `If-None-Match` header matches the object's tag (RFC 9110 §13.1.2): `*`, or a list
 * of tags compared weakly (`W/"x"` matches `"x"`).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const ours = opaque(etag);
  return header.split(",").some((tag) => opaque(tag) === ours);
}

/**
 * One stored object as an HTTP response: ETag/304, one byte range (206/416), cache headers. A
 * storage failure answers 503, never 500: the object is there, the store is not reachable now.
 */
export async function serveObject(
  storage: ObjectStorage,
  options: ServeOptions,
): Promise<Response> {
  try {
    return await readObject(storage, options);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new ServiceUnavailableError("The media store is unavailable; try again.", {
      cause: error,
    });
  }
}

async function readObject(storage: ObjectStorage, options: ServeOptions): Promise<Response> {
  const extension = options.key.split(".").pop() ?? "";
  let range: ReturnType<typeof parseRange> = null;
  if (options.range) {
    const head = await storage.head(options.key);
    if (!head) throw new NotFoundError("This rendition does not exist.");
    range = parseRange(options.range, head.size);
    if (range === "unsatisfiable") throw new RangeNotSatisfiableError(head.size);
  }
  const object = await storage.get(options.key, range ? { range } : {});
  if (!object) throw new NotFoundError("This rendition does not exist.");
  const headers = new Headers({
    "content-type": object.contentType ?? CONTENT_TYPES[extension] ?? "application/octet-stream",
    etag: object.etag,
    "accept-ranges": "bytes",
  });
  if (noneMatch(options.ifNoneMatch, object.etag)) {
    await object.body.cancel();
    return new Response(null, { status: 304, headers });
  }
  if (object.range) {
    const { offset, length } = object.range;
    headers.set("content-range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
    headers.set("content-length", String(length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set("content-length", String(object.size));
  return new Response(object.body, { status: 200, headers });
}
