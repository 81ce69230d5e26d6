import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import {
  AppError,
  NotFoundError,
  RangeNotSatisfiableError,
  ServiceUnavailableError,
  TrackNotReadyError,
} from "../../../errors/app-error.ts";
import type { RequestDeps } from "../../../request-deps.ts";
import { signatureQuery, verifyStream } from "../../../security/stream-signature.ts";
import { type ObjectStorage, UnsatisfiableRangeError } from "../../../storage/index.ts";
import { parseRange } from "./range.ts";

/**
 * Who may get a track's files: everyone (READY and public), its owner (any state or visibility),
 * or the holder of a signed URL (a READY track that is not public, ADR 0026).
 */
export type Audience =
  | { to: "everyone" }
  | { to: "owner" }
  | { to: "signed"; signature: { exp: string; sig: string } };

/** `?exp=…&sig=…` of a signed stream URL, as the query gave them. */
export interface GivenSignature {
  exp?: string | undefined;
  sig?: string | undefined;
}

/**
 * Streams once conversion has finished; unknown tracks answer 404, unfinished ones 404
 * TRACK_NOT_READY, except to their owner (the signed-in artist of `tracks.artist_id`), who may
 * play them in any state. A track that is not public streams only to its owner or with a valid
 * signature bound to its current share key; to anyone else it is missing (404 NOT_FOUND). One
 * statement: the session check of a signed-in caller rides with it.
 */
export async function assertStreamable(
  ctx: Pick<RequestDeps, "db" | "viewer" | "env" | "now">,
  trackId: string,
  given: GivenSignature = {},
): Promise<Audience> {
  const [track] = await ctx.db
    .select({
      status: tracks.processingStatus,
      artistId: tracks.artistId,
      visibility: tracks.visibility,
      shareKey: tracks.shareKey,
    })
    .from(tracks)
    .where(eq(tracks.id, trackId));
  if (!track) throw new NotFoundError("No such track.");
  const { viewer } = ctx;
  if (viewer?.kind === "artist" && viewer.id === track.artistId) {
    return { to: track.status === "READY" && track.visibility === "public" ? "everyone" : "owner" };
  }
  if (track.visibility !== "public") {
    const valid =
      track.status === "READY" &&
      (await verifyStream(ctx.env.JWT_SECRET, trackId, track.shareKey, given, ctx.now));
    if (!valid) throw new NotFoundError("No such track.");
    return { to: "signed", signature: { exp: given.exp ?? "", sig: given.sig ?? "" } };
  }
  if (track.status === "READY") return { to: "everyone" };
  throw new TrackNotReadyError(track.status);
}

/**
 * One file of a track (`key` under `tracks/<id>/`) to whoever may get it: see assertStreamable.
 * The owner's answer about a track not for everyone is private: no cache keeps it (`no-store`);
 * so is a signed one, whose playlists name their files with the same signature (ADR 0026).
 */
export async function serveTrackFile(
  ctx: Pick<RequestDeps, "db" | "viewer" | "storage" | "env" | "now">,
  trackId: string,
  options: ServeOptions,
  given?: GivenSignature,
): Promise<Response> {
  const audience = await assertStreamable(ctx, trackId, given);
  if (audience.to === "signed" && options.key.endsWith(".m3u8")) {
    return await serveSignedPlaylist(ctx.storage, options, audience.signature);
  }
  return await serveObject(ctx.storage, { ...options, private: audience.to !== "everyone" });
}

/**
 * A playlist whose every URI (child playlists, init and media segments) carries the signature
 * the request came with, so an HLS player follows them unchanged. Read whole: a Range header
 * is ignored (200), and it has no ETag (the body depends on the signature).
 */
async function serveSignedPlaylist(
  storage: ObjectStorage,
  options: ServeOptions,
  signature: { exp: string; sig: string },
): Promise<Response> {
  const whole = await serveObject(storage, {
    ...options,
    range: undefined,
    ifNoneMatch: undefined,
  });
  const text = signPlaylist(
    new TextDecoder().decode(await whole.arrayBuffer()),
    signatureQuery({ exp: Number(signature.exp), sig: signature.sig }),
  );
  return new Response(text, {
    status: 200,
    headers: {
      "content-type": CONTENT_TYPES.m3u8 ?? "application/vnd.apple.mpegurl",
      "cache-control": PRIVATE_ANSWER,
      "accept-ranges": "bytes",
    },
  });
}

/** Appends `query` to every URI line and `URI="…"` attribute of an M3U8 playlist. */
export function signPlaylist(playlist: string, query: string): string {
  const withQuery = (uri: string) => `${uri}${uri.includes("?") ? "&" : "?"}${query}`;
  return playlist
    .split("\n")
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed === "") return line;
      if (!trimmed.startsWith("#")) return withQuery(trimmed);
      return line.replace(/URI="([^"]*)"/g, (_, uri: string) => `URI="${withQuery(uri)}"`);
    })
    .join("\n");
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: "application/vnd.apple.mpegurl",
  m4s: "audio/mp4",
  mp4: "audio/mp4",
  opus: "audio/ogg; codecs=opus",
  json: "application/json",
};

/** An answer for one caller: no cache may keep it, the edge's included (see edge-cache.ts). */
const PRIVATE_ANSWER = "private, no-store";

export interface ServeOptions {
  key: string;
  range: string | undefined;
  ifNoneMatch: string | undefined;
  /** For one caller only (`Cache-Control: private, no-store`). */
  private?: boolean;
  /** The type to answer, whatever the object was stored with. */
  contentType?: string;
  /** The detail of the 404 when the object is missing. */
  missing?: string;
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

/**
 * A Range request is one ranged read: the store resolves the range against the object's size and
 * reports the bytes it read and the size (R2 in its answer, S3 in Content-Range). Only a range
 * the store refuses, past the end, costs a second request: a HEAD for the size of the 416.
 */
async function readObject(storage: ObjectStorage, options: ServeOptions): Promise<Response> {
  const range = parseRange(options.range);
  if (range === "unsatisfiable") return await refuseRange(storage, options, undefined);
  let object: Awaited<ReturnType<ObjectStorage["get"]>>;
  try {
    object = await storage.get(options.key, range ? { range } : {});
  } catch (error) {
    if (error instanceof UnsatisfiableRangeError) {
      return await refuseRange(storage, options, error.size);
    }
    throw error;
  }
  if (!object) throw missing(options);
  const extension = options.key.split(".").pop() ?? "";
  const headers = new Headers({
    "content-type":
      options.contentType ??
      object.contentType ??
      CONTENT_TYPES[extension] ??
      "application/octet-stream",
    etag: object.etag,
    "accept-ranges": "bytes",
  });
  if (options.private) headers.set("cache-control", PRIVATE_ANSWER);
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

/** 416 naming the object's size (RFC 9110): as the store said it, else from a HEAD. */
async function refuseRange(
  storage: ObjectStorage,
  options: ServeOptions,
  size: number | undefined,
): Promise<never> {
  if (size !== undefined) throw new RangeNotSatisfiableError(size);
  const head = await storage.head(options.key);
  if (!head) throw missing(options);
  throw new RangeNotSatisfiableError(head.size);
}

const missing = (options: ServeOptions) =>
  new NotFoundError(options.missing ?? "This rendition does not exist.");
