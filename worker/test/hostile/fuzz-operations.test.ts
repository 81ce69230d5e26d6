import { env } from "cloudflare:workers";
import { trackKeys } from "@edge-music/contracts";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env.ts";
import type { PrincipalKind } from "../../src/security/account-kinds.ts";
import {
  app,
  authPath,
  KINDS,
  type Registered,
  registerAccount,
  uniqueIp,
} from "../support/auth.ts";
import { send } from "../support/env.ts";
import { insertAlbum, insertArtist, insertTrack } from "../support/factories.ts";
import { type FuzzContext, requestArbitrary } from "../support/fuzz/requests.ts";
import { expectWellFormed, toRequest } from "../support/fuzz/wire.ts";
import { loadDocument, type Operation, operationsOf } from "../support/openapi-routes.ts";

/**
 * Every operation of the OpenAPI document, fuzzed from its own schemas: valid and invalid
 * parameters, queries, bodies (JSON and multipart) and headers, signed out and with a session of
 * the kind the route takes. Whatever is sent, the answer is never a 5xx, and every 4xx is a
 * problem document. A route added to the app is fuzzed here without any change to this file.
 *
 * Seeds are fixed per operation, so a run is reproducible; fast-check prints the seed, the path
 * and the counterexample of a failure.
 */
const SEED = 20_261_123;
/** Requests per operation: signed out (mostly stopped by guards), and with each session kind. */
const RUNS = { signedOut: 6, signedIn: 14, publicPerKind: 5 };

const doc = await loadDocument();
const operations = operationsOf(doc);

const seedOf = (name: string) =>
  [...name].reduce((hash, char) => (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0, SEED);

/**
 * The READY track's files in the bucket, so that fuzzed ids and Range headers reach the code
 * that serves real objects (ranges, 206, 416), not only the 404 of a missing one.
 */
async function storeMedia(trackId: string) {
  const bucket = (env as Bindings).MEDIA as R2Bucket;
  const keys = trackKeys(trackId);
  const bytes = new Uint8Array(4096).map((_, i) => i % 251);
  await Promise.all([
    bucket.put(keys.master, "#EXTM3U\n128/index.m3u8\n"),
    ...[128, 192, 320].flatMap((kbps) => [
      bucket.put(keys.playlist(kbps), "#EXTM3U\n#EXT-X-ENDLIST\n"),
      bucket.put(keys.init(kbps), bytes),
      bucket.put(keys.segment(kbps, 0), bytes),
      bucket.put(keys.opus(kbps), bytes),
    ]),
  ]);
}

/** Rows that exist, so that fuzzed ids also hit real resources, not only 404s. */
let catalogue: string[] = [];
beforeAll(async () => {
  const artist = await insertArtist();
  const track = await insertTrack(artist.id);
  await storeMedia(track.id);
  const unfinished = await insertTrack(artist.id, { processingStatus: "PROCESSING" });
  const album = await insertAlbum(artist.id);
  catalogue = [artist.id, track.id, unfinished.id, album.id];
});

/**
 * One account per kind, shared by the operations while it lives (registering is the slow part of
 * a test). A fuzzed request may end it (sign-out, deleting the artist, an expired token): then
 * the next operation gets a new one.
 */
const sessions = new Map<PrincipalKind, Registered>();
async function sessionOf(kind: PrincipalKind): Promise<Registered> {
  const current = sessions.get(kind);
  if (current && (await current.client.get(`${authPath(kind)}/me`)).status === 200) return current;
  const fresh = await registerAccount(kind);
  sessions.set(kind, fresh);
  return fresh;
}

/** The caller's id and rows of its own, made anew for each operation (fuzzing deletes them). */
async function ownIds(kind: PrincipalKind, caller: Registered): Promise<string[]> {
  if (kind === "artist") {
    const track = await insertTrack(caller.id);
    const album = await insertAlbum(caller.id);
    return [caller.id, track.id, album.id];
  }
  const created = await caller.client.post("/api/v1/playlists", { title: "Fuzzed" });
  const { id } = (await created.json()) as { id: string };
  return [caller.id, id];
}

async function fuzz(op: Operation, kind: PrincipalKind | null, numRuns: number) {
  const caller = kind ? await sessionOf(kind) : null;
  const ctx: FuzzContext = {
    doc,
    ownIds: kind && caller ? await ownIds(kind, caller) : [],
    knownIds: catalogue,
    signedIn: caller !== null,
  };
  const ip = caller?.client.ip ?? uniqueIp();
  let pastTheGuard = 0;
  await fc.assert(
    fc.asyncProperty(requestArbitrary(ctx, op), async (spec) => {
      const jar = caller?.client.jar;
      const pathname = new URL(spec.url, "http://localhost").pathname;
      const response = await send(app, toRequest(spec, jar?.header(pathname), ip));
      // The session lives on like a browser's: a refresh rotates it, a sign-out ends it.
      jar?.take(response);
      if (![401, 403].includes(response.status)) pastTheGuard++;
      await expectWellFormed(response, spec);
    }),
    { seed: seedOf(`${op.id} ${kind ?? "anonymous"}`), numRuns },
  );
  // With the right session, the fuzzing must reach the validators and services behind the guard
  // (at least once: a fuzzed sign-out or account deletion may end the session early).
  if (op.access.type === "protected" && kind === op.access.kind) {
    expect(pastTheGuard, "requests that got past the guard").toBeGreaterThan(0);
  }
}

describe("fuzzing every operation of the OpenAPI document", () => {
  it("finds the whole route table", () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  it("has an oracle that refuses a 5xx and a 4xx that is not a problem document", async () => {
    const spec = { method: "GET", url: "/x", headers: {}, cookie: { session: false } };
    const problem = { type: "urn:problem-type:x", title: "X", status: 400, code: "X" };
    const json = { "content-type": "application/json" };
    await expect(expectWellFormed(new Response("boom", { status: 500 }), spec)).rejects.toThrow();
    await expect(
      expectWellFormed(new Response(JSON.stringify(problem), { status: 400, headers: json }), spec),
    ).rejects.toThrow();
  });

  describe.each(operations.map((op) => [op.id, op] as const))("%s", (_id, op) => {
    const kinds: PrincipalKind[] = op.access.type === "protected" ? [op.access.kind] : [...KINDS];
    const runs = op.access.type === "protected" ? RUNS.signedIn : RUNS.publicPerKind;

    it(
      "signed out: no 5xx, every 4xx a problem document",
      () => fuzz(op, null, RUNS.signedOut),
      60_000,
    );

    it.each(kinds)(
      "signed in as %s: no 5xx, every 4xx a problem document",
      (kind) => fuzz(op, kind, runs),
      60_000,
    );
  });
});
