import { describe, expect, it } from "vitest";
import { createPlaylist } from "../playlists/support.ts";
import { type Answer, appAccount, call, catalogue, errorCode, json } from "./support.ts";

const f = "json";
const restPlaylist = async (account: Awaited<ReturnType<typeof appAccount>>, id: string) => {
  const answer = await account.client.get(`/api/v1/playlists/${id}`);
  return { status: answer.status, body: (await answer.json()) as Answer };
};

describe("Subsonic playlist changes: the listener's playlists in the REST API", () => {
  it("createPlaylist, updatePlaylist and deletePlaylist show up in the REST API", async () => {
    const { first, second, single } = await catalogue();
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };

    const made = await json(
      await call("createPlaylist", { ...auth, name: "Road", songId: [second.id, first.id] }),
    );
    expect(made.playlist).toMatchObject({ name: "Road", owner: account.username, songCount: 2 });
    const id = made.playlist.id as string;
    let rest = await restPlaylist(account, id);
    expect(rest.body).toMatchObject({ title: "Road", isPublic: false });
    expect((rest.body.tracks as Answer[]).map((t) => t.id)).toEqual([second.id, first.id]);

    const updated = await call("updatePlaylist", {
      ...auth,
      playlistId: id,
      name: "Road trip",
      comment: "Windows down.",
      public: "true",
      songIndexToRemove: "0",
      songIdToAdd: single.id,
    });
    expect(await errorCode(updated)).toBeUndefined();
    rest = await restPlaylist(account, id);
    expect(rest.body).toMatchObject({
      title: "Road trip",
      description: "Windows down.",
      isPublic: true,
    });
    expect((rest.body.tracks as Answer[]).map((t) => t.id)).toEqual([first.id, single.id]);

    // createPlaylist with playlistId replaces its songs (and its name, when one is given).
    const replaced = await json(
      await call("createPlaylist", { ...auth, playlistId: id, songId: [second.id, first.id] }),
    );
    expect(replaced.playlist).toMatchObject({ id, name: "Road trip", songCount: 2 });
    rest = await restPlaylist(account, id);
    expect((rest.body.tracks as Answer[]).map((t) => t.id)).toEqual([second.id, first.id]);
    await call("createPlaylist", { ...auth, playlistId: id, name: "Empty" });
    rest = await restPlaylist(account, id);
    expect(rest.body).toMatchObject({ title: "Empty", tracks: [] });

    expect(await errorCode(await call("deletePlaylist", { ...auth, id }))).toBeUndefined();
    expect((await restPlaylist(account, id)).status).toBe(404);
  });

  it("another listener's playlist cannot be changed; an artist has none; bad input is refused", async () => {
    const { first } = await catalogue();
    const owner = await appAccount();
    const theirs = await createPlaylist(owner.client, { title: "Theirs", isPublic: true });
    const other = await appAccount();
    const auth = { apiKey: other.appPassword, f };
    expect(
      await errorCode(
        await call("updatePlaylist", { ...auth, playlistId: theirs.id, name: "Mine" }),
      ),
    ).toBe(50);
    expect(await errorCode(await call("deletePlaylist", { ...auth, id: theirs.id }))).toBe(50);
    expect((await restPlaylist(owner, theirs.id)).body.title).toBe("Theirs");

    const artist = await appAccount("artist");
    const byArtist = await call("createPlaylist", { apiKey: artist.appPassword, f, name: "A" });
    expect(await errorCode(byArtist)).toBe(50);

    expect(await errorCode(await call("createPlaylist", auth))).toBe(10);
    expect(await errorCode(await call("createPlaylist", { ...auth, name: "   " }))).toBe(0);
    const replacing = await call("createPlaylist", {
      ...auth,
      playlistId: theirs.id,
      songId: first.id,
    });
    // Replacing another's songs is refused like any change of it; theirs is untouched.
    expect(await errorCode(replacing)).toBe(50);
    expect((await restPlaylist(owner, theirs.id)).body.tracks).toEqual([]);
    const own = await createPlaylist(other.client, { title: "Own" });
    const badIndex = await call("updatePlaylist", {
      ...auth,
      playlistId: own.id,
      songIndexToRemove: "3",
    });
    expect(await errorCode(badIndex)).toBe(70);
    const unknown = await call("updatePlaylist", {
      ...auth,
      playlistId: crypto.randomUUID(),
      name: "X",
    });
    expect(await errorCode(unknown)).toBe(70);
  });

  it("public is read as apps send it: true or True (Python's), anything else is false", async () => {
    const account = await appAccount();
    const auth = { apiKey: account.appPassword, f };
    const own = await createPlaylist(account.client, { title: "Flags" });
    for (const [sent, isPublic] of [
      ["True", true],
      ["false", false],
      ["TRUE", true],
      ["False", false],
    ] as const) {
      const answer = await call("updatePlaylist", { ...auth, playlistId: own.id, public: sent });
      expect(await errorCode(answer)).toBeUndefined();
      expect((await restPlaylist(account, own.id)).body.isPublic).toBe(isPublic);
    }
  });
});
