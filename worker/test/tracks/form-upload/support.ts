import { env } from "cloudflare:workers";
import { tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import type { Bindings } from "../../../src/env.ts";
import { app, type Registered } from "../../support/auth.ts";
import { send, testBindings } from "../../support/env.ts";
import { withDb } from "../../support/factories.ts";

/** Raw multipart bodies, byte for byte: FormData would escape the hostile names we want to send. */
export interface RawPart {
  /** The Content-Disposition line's parameters after `form-data; `, as sent. */
  disposition: string;
  contentType?: string;
  body: Uint8Array | string;
}

const encoder = new TextEncoder();
const bytesOf = (value: Uint8Array | string) =>
  typeof value === "string" ? encoder.encode(value) : value;

export function multipart(parts: RawPart[]) {
  const boundary = `hostile-${crypto.randomUUID()}`;
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const type = part.contentType === undefined ? "" : `\r\nContent-Type: ${part.contentType}`;
    chunks.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; ${part.disposition}${type}\r\n\r\n`,
      ),
      bytesOf(part.body),
      encoder.encode("\r\n"),
    );
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { boundary, bytes: concat(chunks) };
}

export function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export const textPart = (name: string, value: string): RawPart => ({
  disposition: `name="${name}"`,
  body: value,
});
export const filePart = (
  name: string,
  filename: string,
  body: Uint8Array | string,
  contentType = "application/octet-stream",
): RawPart => ({ disposition: `name="${name}"; filename="${filename}"`, contentType, body });

/** An MPEG-1 layer III frame header, then `size` bytes: audio as the upload recognises it. */
export function mp3(size = 4096, tail: Uint8Array | string = ""): Uint8Array<ArrayBuffer> {
  const head = new Uint8Array(size);
  head.set([0xff, 0xfb, 0x90, 0x64]);
  return concat([head, bytesOf(tail)]);
}

/** POST /api/v1/tracks with a raw body (bytes or a stream) and the artist's cookie. */
export function postUpload(
  artist: Registered,
  body: BodyInit,
  boundary: string,
  headers: Record<string, string> = {},
  overrides: Partial<Bindings> = {},
) {
  return send(
    app,
    "/api/v1/tracks",
    {
      method: "POST",
      body,
      headers: {
        cookie: `access_token=${artist.client.jar.get("access_token")}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        ...headers,
      },
    },
    testBindings(overrides),
  );
}

export const bucket = () => (env as Bindings).MEDIA as R2Bucket;

/** Every key in the bucket under `prefix` that satisfies `match` (pages through the listing). */
export async function keysWhere(prefix: string, match: (key: string) => boolean) {
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket().list({ prefix, ...(cursor ? { cursor } : {}) });
    found.push(...page.objects.map((o) => o.key).filter(match));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return found;
}

export const trackRowsOf = (artistId: string) =>
  withDb((db) => db.select().from(tracks).where(eq(tracks.artistId, artistId)));

/** Objects under `prefix` whose bytes are exactly `bytes` (a refused upload must leave none). */
export async function objectsHolding(prefix: string, bytes: Uint8Array) {
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket().list({ prefix, ...(cursor ? { cursor } : {}) });
    for (const { key, size } of page.objects) {
      if (size !== bytes.length) continue;
      const object = await bucket().get(key);
      const stored = new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0));
      if (stored.length === bytes.length && stored.every((b, i) => b === bytes[i])) found.push(key);
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return found;
}
