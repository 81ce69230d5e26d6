import { rateLimits, tracks } from "@edge-music/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { networkListener } from "../../src/features/plays/listener-key.ts";
import { app, Client, registerAccount, uniqueIp } from "../support/auth.ts";
import { send, testBindings } from "../support/env.ts";
import { insertArtist, insertTrack, withDb } from "../support/factories.ts";
import { sentPlays } from "../support/plays.ts";
import { expectProblem } from "../support/problem.ts";
import { deliver, rollupsOf } from "./support.ts";

const PLAYS = "/api/v1/plays";

/** An anonymous play report from `ip`, with the country the edge saw. */
function report(
  body: unknown,
  ip = uniqueIp(),
  country?: string,
  contentType = "application/json",
) {
  const request = new Request(new URL(PLAYS, "http://localhost"), {
    method: "POST",
    headers: { "content-type": contentType, "cf-connecting-ip": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(country ? { cf: { country } } : {}),
  });
  return send(app, request);
}

/**
 * The signature with its first character changed. The first of a base64url MAC's characters
 * carries six of its bits, so the result never verifies. Replacing the last two with "AA" left
 * the MAC as it was whenever its last ten bits were zero (one run in about a thousand).
 */
const altered = (sig: string) => `${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`;

async function readyTrack(values: Parameters<typeof insertTrack>[1] = {}) {
  return await insertTrack((await insertArtist()).id, values);
}

describe("POST /plays (a listener who is not signed in)", () => {
  it("answers 202 and sends the play to the queue, keyed by a hash of the network and with the edge's country", async () => {
    const track = await readyTrack();
    const ip = uniqueIp();
    const response = await report({ trackId: track.id }, ip, "DE");
    expect(response.status).toBe(202);
    const body = (await response.json()) as { trackId: string; reportedAt: string };
    expect(body.trackId).toBe(track.id);
    const [sent] = sentPlays.of(track.id);
    expect(sent).toMatchObject({ v: 1, trackId: track.id, country: "DE", at: body.reportedAt });
    expect(sent?.listener).toMatch(/^n:[0-9a-f]{32}$/);
    expect(JSON.stringify(sent)).not.toContain(ip);
  });

  it("refuses a report sent from a page of another origin (403) and sends nothing", async () => {
    const track = await readyTrack();
    const response = await send(
      app,
      new Request(new URL(PLAYS, "http://localhost"), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "cf-connecting-ip": uniqueIp(),
          origin: "https://evil.example",
        },
        body: JSON.stringify({ trackId: track.id }),
      }),
    );
    await expectProblem(response, 403, "FORBIDDEN");
    expect(sentPlays.of(track.id)).toHaveLength(0);
  });

  it("knows one network as one listener, and two networks as two", async () => {
    const track = await readyTrack();
    const ip = uniqueIp();
    await report({ trackId: track.id }, ip);
    await report({ trackId: track.id }, ip);
    await report({ trackId: track.id }, uniqueIp());
    const keys = sentPlays.of(track.id).map((p) => p.listener);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(sentPlays.of(track.id)[0]?.country).toBe("XX");
  });

  it("answers 404 for a track that is unknown, not READY, private, or unlisted without its key", async () => {
    const artist = await insertArtist();
    const tracksToRefuse = [
      { id: crypto.randomUUID() },
      await insertTrack(artist.id, { processingStatus: "PROCESSING" }),
      await insertTrack(artist.id, { processingStatus: "FAILED" }),
      await insertTrack(artist.id, { visibility: "private" }),
      await insertTrack(artist.id, { visibility: "unlisted" }),
    ];
    for (const track of tracksToRefuse) {
      await expectProblem(await report({ trackId: track.id }), 404, "NOT_FOUND");
      expect(sentPlays.of(track.id)).toEqual([]);
    }
  });

  it("takes an unlisted track with its signed stream URLs' signature, and not with another's", async () => {
    const track = await readyTrack({ visibility: "unlisted" });
    const other = await readyTrack({ visibility: "unlisted" });
    const signatureOf = async (t: { id: string; shareKey: string }) => {
      const read = await new Client().get(`/api/v1/tracks/${t.id}?key=${t.shareKey}`);
      const { stream } = (await read.json()) as { stream: { query: string } };
      return Object.fromEntries(new URLSearchParams(stream.query)) as { exp: string; sig: string };
    };
    const mine = await signatureOf(track);
    expect((await report({ trackId: track.id, ...mine })).status).toBe(202);
    expect(sentPlays.of(track.id)).toHaveLength(1);
    await expectProblem(
      await report({ trackId: track.id, ...(await signatureOf(other)) }),
      404,
      "NOT_FOUND",
    );
    await expectProblem(
      await report({ trackId: track.id, exp: mine.exp, sig: altered(mine.sig) }),
      404,
      "NOT_FOUND",
    );
    await expectProblem(await report({ trackId: track.id, exp: mine.exp }), 404, "NOT_FOUND");
    expect(sentPlays.of(track.id)).toHaveLength(1);
  });

  it("takes an unlisted track with its link's key, and not with another", async () => {
    const track = await readyTrack({ visibility: "unlisted" });
    await expectProblem(await report({ trackId: track.id, key: "0".repeat(32) }), 404, "NOT_FOUND");
    expect((await report({ trackId: track.id, key: track.shareKey })).status).toBe(202);
    expect(sentPlays.of(track.id)).toHaveLength(1);
  });

  it("answers 400 to a body that is not a play report", async () => {
    const track = await readyTrack();
    for (const body of [
      {},
      { trackId: "nope" },
      { trackId: track.id, key: "k".repeat(65) },
      { trackId: track.id, extra: true },
    ]) {
      await expectProblem(await report(body), 400, "VALIDATION_FAILED");
    }
    await expectProblem(await report("not json"), 400, "MALFORMED_REQUEST");
    await expectProblem(
      await report({ trackId: track.id }, uniqueIp(), undefined, "text/plain"),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expect(sentPlays.of(track.id)).toEqual([]);
  });

  it("limits a network to 300 reports an hour (429 with Retry-After)", async () => {
    const track = await readyTrack();
    const ip = uniqueIp();
    const listener = await networkListener(testBindings().JWT_SECRET ?? "", ip, new Date());
    await withDb((db) =>
      db
        .insert(rateLimits)
        .values({ key: `plays:${listener}`, windowStartedAt: new Date(), hits: 300 }),
    );
    const refused = await report({ trackId: track.id }, ip);
    await expectProblem(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(sentPlays.of(track.id)).toEqual([]);
    expect((await report({ trackId: track.id }, uniqueIp())).status).toBe(202);
  });
});

describe("plays reported by two listeners", () => {
  it("show on the track once the consumer has counted them (one signed in, one not)", async () => {
    const track = await readyTrack();
    const user = await registerAccount("user");
    expect((await user.client.post(`/api/v1/history/tracks/${track.id}`)).status).toBe(201);
    expect((await report({ trackId: track.id }, uniqueIp(), "JP")).status).toBe(202);
    const sent = sentPlays.of(track.id);
    expect(sent.map((p) => p.listener)).toEqual([`u:${user.id}`, expect.stringMatching(/^n:/)]);
    await deliver(sent);
    const rollups = await rollupsOf(track.id);
    expect(rollups.plays).toBe(2);
    expect(rollups.daily[0]).toMatchObject({ plays: 2, listeners: 2 });
    const [row] = await withDb((db) =>
      db.select({ plays: tracks.plays }).from(tracks).where(eq(tracks.id, track.id)),
    );
    expect(row?.plays).toBe(2);
  });
});

describe("a track's plays", () => {
  it("are on the track and in its artist's list of tracks, 0 before any play", async () => {
    const artist = await insertArtist();
    const track = await insertTrack(artist.id);
    const user = await registerAccount("user");
    const read = async () => {
      const one = (await (await user.client.get(`/api/v1/tracks/${track.id}`)).json()) as {
        plays: number;
      };
      const list = (await (
        await user.client.get(`/api/v1/artists/${artist.id}/tracks`)
      ).json()) as Array<{ id: string; plays: number }>;
      return [one.plays, list.find((t) => t.id === track.id)?.plays];
    };
    expect(await read()).toEqual([0, 0]);
    await report({ trackId: track.id });
    await report({ trackId: track.id });
    await deliver(sentPlays.of(track.id));
    expect(await read()).toEqual([2, 2]);
  });
});
