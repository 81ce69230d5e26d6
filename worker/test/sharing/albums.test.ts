import { env } from "cloudflare:workers";
import { trackKeys } from "@edge-music/contracts";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../src/env.ts";
import { Client, registerAccount } from "../support/auth.ts";
import { insertAlbum, insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

/** An album's visibility (ADR 0025): its own, and its tracks' inside it. */

const bucket = () => (env as Bindings).MEDIA as R2Bucket;

const json = async <T = Record<string, unknown>>(response: Response) =>
  (await response.json()) as T;
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

async function albumWithTracks() {
  const owner = await registerAccount("artist");
  const album = await insertAlbum(owner.id);
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
  const shown = await insertTrack(owner.id, { albumId: album.id, createdAt: at(1) });
  const unlisted = await insertTrack(owner.id, {
    albumId: album.id,
    visibility: "unlisted",
    createdAt: at(2),
  });
  const hidden = await insertTrack(owner.id, {
    albumId: album.id,
    visibility: "private",
    createdAt: at(3),
  });
  return { owner, album, shown, unlisted, hidden };
}

describe("album visibility", () => {
  it("a public album lists its public tracks to everyone, every track to its owner", async () => {
    const { owner, album, shown, unlisted, hidden } = await albumWithTracks();
    const path = `/api/v1/albums/${album.id}`;
    const anyone = await json<{ tracks: Array<{ id: string }> }>(await new Client().get(path));
    expect(ids(anyone.tracks)).toEqual([shown.id]);
    const own = await json<{ tracks: Array<{ id: string }> }>(await owner.client.get(path));
    expect(ids(own.tracks)).toEqual([shown.id, unlisted.id, hidden.id]);
  });

  it("an unlisted album: 404 and unlisted without its key; with it, its public and unlisted tracks", async () => {
    const { owner, album, shown, unlisted } = await albumWithTracks();
    const path = `/api/v1/albums/${album.id}`;
    const saved = await owner.client.put(path, { visibility: "unlisted" });
    expect(await json(saved)).toMatchObject({ visibility: "unlisted" });
    await expectProblem(await new Client().get(path), 404, "NOT_FOUND");
    for (const list of [
      `/api/v1/albums?artistId=${owner.id}`,
      `/api/v1/artists/${owner.id}/albums`,
    ]) {
      expect(ids(await json(await new Client().get(list)))).not.toContain(album.id);
    }
    // The owner's studio list still has it.
    const mine = await json<Array<{ id: string; visibility: string }>>(
      await owner.client.get(`/api/v1/artists/${owner.id}/albums`),
    );
    expect(mine.find((row) => row.id === album.id)?.visibility).toBe("unlisted");

    const { url } = await json<{ url: string }>(await owner.client.get(`${path}/share-link`));
    expect(url).toContain(`/albums/${album.id}?key=`);
    const key = new URL(url).searchParams.get("key");
    const keyed = await new Client().get(`${path}?key=${key}`);
    expect(keyed.headers.get("cache-control")).toBe("private, no-store");
    expect(keyed.headers.get("x-edge-cache")).toBe("bypass");
    const body = await json<{ tracks: Array<{ id: string; stream?: { master: string } }> }>(keyed);
    expect(ids(body.tracks)).toEqual([shown.id, unlisted.id]);
    // Its unlisted track comes with signed URLs of its files (the public one plays unsigned), and
    // they play: the album's key opens the track's files, signed with the track's own key.
    const [publicOne, unlistedOne] = body.tracks;
    expect(publicOne?.stream).toBeUndefined();
    expect(unlistedOne).toMatchObject({
      visibility: "unlisted",
      stream: { master: expect.stringMatching(/\/hls\/master\.m3u8\?exp=\d+&sig=/) },
    });
    const master = unlistedOne?.stream?.master ?? "";
    await bucket().put(trackKeys(unlisted.id).master, "#EXTM3U\n", {
      httpMetadata: { contentType: "application/vnd.apple.mpegurl" },
    });
    expect((await new Client().get(master)).status).toBe(200);
    await expectProblem(
      await new Client().get(`/api/v1/tracks/stream/${unlisted.id}/hls/master.m3u8`),
      404,
      "NOT_FOUND",
    );
    // Rotating the track's own key ends those URLs too.
    await owner.client.post(`/api/v1/tracks/${unlisted.id}/share-link`);
    await expectProblem(await new Client().get(master), 404, "NOT_FOUND");
    // A track's key does not open the album, nor the album's key a private album.
    await owner.client.post(`${path}/share-link`);
    await expectProblem(await new Client().get(`${path}?key=${key}`), 404, "NOT_FOUND");
    await expectProblem(
      await owner.client.put(path, { visibility: "everyone" }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("a private album is its owner's alone, even with its key", async () => {
    const { owner, album } = await albumWithTracks();
    const path = `/api/v1/albums/${album.id}`;
    await owner.client.put(path, { visibility: "private" });
    const { url } = await json<{ url: string }>(await owner.client.get(`${path}/share-link`));
    await expectProblem(
      await new Client().get(url.replace(/^.*\/albums\//, "/api/v1/albums/")),
      404,
      "NOT_FOUND",
    );
    expect((await owner.client.get(path)).status).toBe(200);
  });
});
