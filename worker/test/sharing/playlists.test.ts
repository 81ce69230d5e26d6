import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { expectProblem } from "../support/problem.ts";

/** A playlist's visibility beside the spec's isPublic (ADR 0025). */

const json = async <T = Record<string, unknown>>(response: Response) =>
  (await response.json()) as T;

describe("playlist visibility", () => {
  it("keeps isPublic in step: true is public, false leaves an unlisted playlist unlisted", async () => {
    const owner = await registerAccount("user");
    const made = await json<{ id: string; isPublic: boolean; visibility: string }>(
      await owner.client.post("/api/v1/playlists", { title: "Shared", visibility: "unlisted" }),
    );
    expect(made).toMatchObject({ isPublic: false, visibility: "unlisted" });
    const path = `/api/v1/playlists/${made.id}`;
    expect(await json(await owner.client.put(path, { isPublic: false }))).toMatchObject({
      isPublic: false,
      visibility: "unlisted",
    });
    expect(await json(await owner.client.put(path, { isPublic: true }))).toMatchObject({
      isPublic: true,
      visibility: "public",
    });
    expect(await json(await owner.client.put(path, { isPublic: false }))).toMatchObject({
      isPublic: false,
      visibility: "private",
    });
    expect(await json(await owner.client.put(path, { visibility: "unlisted" }))).toMatchObject({
      isPublic: false,
      visibility: "unlisted",
    });
    await expectProblem(
      await owner.client.put(path, { isPublic: true, visibility: "private" }),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await owner.client.post("/api/v1/playlists", { title: "X", visibility: "secret" }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("an unlisted playlist: 404 and unlisted without its key, shown with it, ended by rotation", async () => {
    const owner = await registerAccount("user");
    const { id } = await json<{ id: string }>(
      await owner.client.post("/api/v1/playlists", { title: "Link only", visibility: "unlisted" }),
    );
    const path = `/api/v1/playlists/${id}`;
    await expectProblem(await new Client().get(path), 404, "NOT_FOUND");
    const listed = await json<Array<{ id: string }>>(
      await new Client().get("/api/v1/playlists?limit=100"),
    );
    expect(listed.map((p) => p.id)).not.toContain(id);
    const { url } = await json<{ url: string }>(await owner.client.get(`${path}/share-link`));
    const key = new URL(url).searchParams.get("key");
    const shown = await new Client().get(`${path}?key=${key}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("private, no-store");
    expect(await json(shown)).toMatchObject({ id, visibility: "unlisted" });
    // Another user cannot read its link; the owner's own list has it.
    const other = await registerAccount("user");
    await expectProblem(await other.client.get(`${path}/share-link`), 404, "NOT_FOUND");
    const mine = await json<Array<{ id: string; visibility: string }>>(
      await owner.client.get("/api/v1/playlists/me"),
    );
    expect(mine.find((p) => p.id === id)?.visibility).toBe("unlisted");
    await owner.client.post(`${path}/share-link`);
    await expectProblem(await new Client().get(`${path}?key=${key}`), 404, "NOT_FOUND");
  });
});
