import { describe, expect, it } from "vitest";
import { Client, registerAccount } from "../support/auth.ts";
import { insertTrack } from "../support/factories.ts";
import { expectProblem } from "../support/problem.ts";

interface Named {
  displayName: string | null;
}

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

const fresh = { "cache-control": "no-cache" };

describe("display names", () => {
  it("an artist's, with spaces and any script, is shown with the profile and the tracks", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    const updated = await json<Named>(
      await artist.client.put(path, { displayName: "  Luna   Harbor 月の港 " }),
    );
    expect(updated.displayName).toBe("Luna Harbor 月の港");
    const track = await insertTrack(artist.id);
    const seen = await json<{ artist: Named & { username: string } }>(
      await new Client().get(`/api/v1/tracks/${track.id}`, fresh),
    );
    expect(seen.artist).toMatchObject({
      username: artist.username,
      displayName: "Luna Harbor 月の港",
    });
    // Null removes it; the username is shown again.
    expect(
      (await json<Named>(await artist.client.put(path, { displayName: null }))).displayName,
    ).toBeNull();
  });

  it("refuses an empty, too long or invisible name with 400", async () => {
    const artist = await registerAccount("artist");
    const path = `/api/v1/artists/${artist.id}`;
    for (const displayName of [
      "",
      "   ",
      "x".repeat(51),
      "Luna\u0000",
      "Lu\u200bna",
      "Luna\u202e",
    ]) {
      await expectProblem(await artist.client.put(path, { displayName }), 400, "VALIDATION_FAILED");
    }
    // 50 characters counted as people see them: 50 CJK characters fit.
    await json(await artist.client.put(path, { displayName: "港".repeat(50) }));
  });

  it("a listener's names their public playlists, and nothing else ever does", async () => {
    const listener = await registerAccount("user");
    const created = await json<{ id: string; owner: { id: string } & Named }>(
      await listener.client.post("/api/v1/playlists", { title: "Night bus", isPublic: true }),
      201,
    );
    // No display name: no name at all (never the username, which may come from the address).
    expect(created.owner).toEqual({ id: listener.id, displayName: null });
    const me = await json<Named & { username: string }>(
      await listener.client.patch("/api/v1/users/me", { displayName: "Night Owl" }),
    );
    expect(me).toMatchObject({ username: listener.username, displayName: "Night Owl" });
    const seen = await json<{ owner: Named }>(
      await new Client().get(`/api/v1/playlists/${created.id}`, fresh),
    );
    expect(seen.owner.displayName).toBe("Night Owl");
    const text = JSON.stringify(seen);
    expect(text).not.toContain(listener.username);
    expect(text).not.toContain(listener.email.split("@")[0]);
    await expectProblem(
      await listener.client.patch("/api/v1/users/me", { displayName: "\u0007" }),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await listener.client.patch("/api/v1/users/me", {}),
      400,
      "VALIDATION_FAILED",
    );
    await expectProblem(
      await new Client().patch("/api/v1/users/me", { displayName: "x" }),
      401,
      "UNAUTHORIZED",
    );
  });
});
