import { env } from "cloudflare:workers";
import { trackKeys, WAVEFORM_POINTS, Waveform } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env.ts";
import { Client, registerAccount } from "../../support/auth.ts";
import { insertArtist, insertTrack } from "../../support/factories.ts";
import { loadDocument } from "../../support/openapi-routes.ts";
import { expectProblem } from "../../support/problem.ts";

const bucket = () => (env as Bindings).MEDIA as R2Bucket;
const path = (id: string) => `/api/v1/tracks/${id}/waveform`;
const get = (url: string, headers: Record<string, string> = {}) => new Client().get(url, headers);

/** A waveform as the transcoder writes it: 2000 peaks, 0–1, three decimals. */
const waveform = (): Waveform =>
  Waveform.parse({
    version: 1,
    points: WAVEFORM_POINTS,
    duration: 215.5,
    peak: 0.891,
    peaks: Array.from(
      { length: WAVEFORM_POINTS },
      (_, i) => Math.round(Math.abs(Math.sin(i / 40)) * 1000) / 1000,
    ),
  });

/** A track of `status` whose conversion wrote its waveform. */
async function withWaveform(artistId: string, processingStatus: "READY" | "PROCESSING" = "READY") {
  const { id } = await insertTrack(artistId, { processingStatus });
  const stored = waveform();
  await bucket().put(trackKeys(id).waveform, JSON.stringify(stored), {
    httpMetadata: { contentType: "application/json" },
  });
  return { id, stored };
}

describe("GET /api/v1/tracks/{id}/waveform", () => {
  it("answers the stored peaks as JSON, kept forever by browsers, then from the edge", async () => {
    const { id, stored } = await withWaveform((await insertArtist()).id);
    const first = await get(path(id));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(first.headers.get("x-edge-cache")).toBe("miss");
    const body = Waveform.parse(await first.json());
    expect(body).toEqual(stored);
    expect(body.peaks.length).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...body.peaks)).toBeLessThanOrEqual(1);

    // Gone from storage, still answered by the edge (a day), to a signed-in listener too.
    await bucket().delete(trackKeys(id).waveform);
    const listener = await registerAccount("user");
    const cached = await listener.client.get(path(id.toUpperCase()));
    expect([cached.status, cached.headers.get("x-edge-cache")]).toEqual([200, "hit"]);
    expect(await cached.json()).toEqual(stored);
  });

  it("answers If-None-Match with 304 and ignores Range (the whole document)", async () => {
    const { id, stored } = await withWaveform((await insertArtist()).id);
    const etag = (await get(path(id))).headers.get("etag") ?? "";
    expect(etag).toMatch(/"/);
    const unchanged = await get(path(id), { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe("");
    expect((await get(path(id), { "if-none-match": '"other"' })).status).toBe(200);
    const ranged = await get(path(id), { range: "bytes=0-9" });
    expect(ranged.status).toBe(200);
    expect(await ranged.json()).toEqual(stored);
  });

  it("answers 404 for an unknown track, an unfinished one and one converted without a waveform", async () => {
    await expectProblem(await get(path(crypto.randomUUID())), 404, "NOT_FOUND");
    const artist = await insertArtist();
    const { id: processing } = await withWaveform(artist.id, "PROCESSING");
    const notReady = await expectProblem(await get(path(processing)), 404, "TRACK_NOT_READY");
    expect(notReady.processingStatus).toBe("PROCESSING");
    const older = await insertTrack(artist.id);
    const none = await expectProblem(await get(path(older.id)), 404, "NOT_FOUND");
    expect(none.detail).toBe(
      "This track has no waveform: it was converted before waveforms were made.",
    );
    await expectProblem(await get("/api/v1/tracks/abc/waveform"), 400, "VALIDATION_FAILED");
  });

  it("answers the owner of an unfinished track privately; anyone else 404", async () => {
    const owner = await registerAccount("artist");
    const { id, stored } = await withWaveform(owner.id, "PROCESSING");
    for (let i = 0; i < 2; i++) {
      const own = await owner.client.get(path(id));
      expect(own.status).toBe(200);
      expect(own.headers.get("cache-control")).toBe("private, no-store");
      expect(own.headers.get("x-edge-cache")).toBe("bypass");
      expect(await own.json()).toEqual(stored);
    }
    const stranger = await registerAccount("artist");
    await expectProblem(await stranger.client.get(path(id)), 404, "TRACK_NOT_READY");
    await expectProblem(await get(path(id)), 404, "TRACK_NOT_READY");
  });

  it("is documented with the JSON's schema", async () => {
    const doc = (await loadDocument()) as unknown as {
      paths: Record<string, { get: { responses: Record<string, { content?: unknown }> } }>;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    const operation = doc.paths["/api/v1/tracks/{id}/waveform"]?.get;
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
      "200",
      "304",
      "400",
      "401",
      "404",
      "503",
    ]);
    expect(operation?.responses["200"]?.content).toEqual({
      "application/json": { schema: { $ref: "#/components/schemas/Waveform" } },
    });
    expect(doc.components.schemas.Waveform?.required?.sort()).toEqual([
      "duration",
      "peak",
      "peaks",
      "points",
      "version",
    ]);
  });
});
