import { trackFiles } from "@edge-music/db";
import { XMLParser } from "fast-xml-parser";
import { expect } from "vitest";
import type { Bindings } from "../../src/env.ts";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import { app, type Registered, registerAccount, uniqueIp } from "../support/auth.ts";
import { send, testBindings } from "../support/env.ts";
import { insertAlbum, insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { bucket } from "../tracks/form-upload/support.ts";

/** A parsed answer, read by path in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: protocol answers are checked member by member.
export type Answer = Record<string, any>;

export interface AppAccount extends Registered {
  appPassword: string;
  appPasswordId: string;
}

/** A fresh account with one app password, as a listener makes it in the REST API. */
export async function appAccount(kind: PrincipalKind = "user"): Promise<AppAccount> {
  const account = await registerAccount(kind);
  const made = await account.client.post(`/api/v1/${kind}s/me/app-passwords`, { name: "App" });
  expect(made.status).toBe(201);
  const { password, id } = (await made.json()) as { password: string; id: string };
  return { ...account, appPassword: password, appPasswordId: id };
}

export async function md5Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("MD5", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Token auth as apps send it: `u`, `t` = md5(password + salt), `s`. */
export async function tokenAuth(username: string, password: string, salt = crypto.randomUUID()) {
  return { u: username, t: await md5Hex(password + salt), s: salt, v: "1.16.1", c: "tests" };
}

export interface CallOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  ip?: string;
  /** `.view` after the method, as older apps call it. */
  view?: boolean;
  /** Bindings of the call (the round-trip suite's counting bridge). */
  env?: Bindings;
}

/** One call of the protocol through the Worker, its parameters in the query (or the form). */
export async function call(
  method: string,
  params: Record<string, string | string[] | undefined>,
  options: CallOptions = {},
): Promise<Response> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
  }
  const path = `/rest/${method}${options.view ? ".view" : ""}`;
  const headers = { "cf-connecting-ip": options.ip ?? uniqueIp(), ...options.headers };
  if (options.method === "POST") {
    return await send(
      app,
      path,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: search.toString(),
      },
      options.env ?? testBindings(),
    );
  }
  return await send(app, `${path}?${search}`, { headers }, options.env ?? testBindings());
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  isArray: (name) => ["index", "artist", "album", "song", "musicFolder", "folder"].includes(name),
});

/** An XML answer parsed by a real parser: `subsonic-response` with its attributes as strings. */
export async function xml(response: Response): Promise<Answer> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
  const parsed = parser.parse(await response.text()) as Answer;
  return parsed["subsonic-response"];
}

/** A JSON answer's `subsonic-response`. */
export async function json(response: Response): Promise<Answer> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return ((await response.json()) as Answer)["subsonic-response"];
}

/** The error code of a JSON answer (status "failed"), or undefined for "ok". */
export async function errorCode(response: Response): Promise<number | undefined> {
  const body = await json(response);
  if (body.status === "ok") return undefined;
  expect(body.status).toBe("failed");
  return body.error.code;
}

/** An artist's catalogue as the tests need it: an album of two READY tracks, a single, and
 * tracks that must never show (converting, failed). */
export async function catalogue() {
  const artist = await insertArtist();
  // Twelve random hex digits: search is typo-tolerant (two edits in a long word), and six let
  // another file's album come within two edits of this one (it did, once in a full run).
  const album = await insertAlbum(
    artist.id,
    `Album & "Friends" <${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}>`,
  );
  // Album positions are given in the order tracks join (a trigger): first, then second.
  const first = await insertTrack(artist.id, { albumId: album.id });
  const second = await insertTrack(artist.id, { albumId: album.id });
  const single = await insertTrack(artist.id, { title: "A single" });
  const converting = await insertTrack(artist.id, {
    albumId: album.id,
    processingStatus: "PROCESSING",
  });
  const failed = await insertTrack(artist.id, { processingStatus: "FAILED" });
  return { artist, album, first, second, single, converting, failed };
}

/** Opus files of a track at these bitrates, each holding its own bytes. */
export const withOpus = (trackId: string, rates: number[]) => withAudio(trackId, "opus", rates);

/** Whole AAC files (`audio/<kbps>k.m4a`), 1,000 bytes starting `M4A-<kbps>-`, with their rows. */
export const withAac = (trackId: string, rates: number[]) => withAudio(trackId, "aac", rates);

async function withAudio(trackId: string, kind: "opus" | "aac", rates: number[]) {
  const [extension, contentType, mark] =
    kind === "opus" ? ["opus", "audio/ogg", "OggS"] : ["m4a", "audio/mp4", "M4A"];
  for (const kbps of rates) {
    const key = `tracks/${trackId}/audio/${kbps}k.${extension}`;
    const bytes = new TextEncoder().encode(`${mark}-${kbps}-`.padEnd(1000, "x"));
    await bucket().put(key, bytes, { httpMetadata: { contentType } });
    await withDb((db) =>
      db.insert(trackFiles).values({
        trackId,
        kind,
        bitrate: kbps,
        storageKey: key,
        contentType,
        sizeBytes: bytes.length,
      }),
    );
  }
}
