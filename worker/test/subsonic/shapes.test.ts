import { beforeAll, describe, expect, it } from "vitest";
import manifest from "../../package.json";
import script from "../../scripts/subsonic-schemas.ts?raw";
import { METHOD_NAMES } from "../../src/features/subsonic/service.ts";
import { addTracks, createPlaylist } from "../playlists/support.ts";
import schemas from "./answer-schemas.json";
import types from "./answer-types.ts?raw";
import { contentsHash, inputsHash } from "./schema-inputs.ts";
import { CHECKED_METHODS, jsonShape, shapeErrors, xmlShape, xmlTree } from "./shapes.ts";
import { type Answer, appAccount, call, catalogue, json, withAac, withOpus } from "./support.ts";

/**
 * Issue 30: answers validated against the protocol's shapes as a client library declares them
 * (subsonic-api's types, turned into answer-schemas.json by worker/scripts/subsonic-schemas.ts),
 * and each XML answer's structure against its JSON twin's.
 */

type Args = Record<string, string | string[]>;

/** One listener with something in every list, and the arguments of every checked method. */
async function fixtures() {
  const account = await appAccount();
  const { artist, album, first, second, single } = await catalogue();
  await withOpus(first.id, [128]);
  await withAac(first.id, [128]);
  const auth = { apiKey: account.appPassword };
  const made = async (title: string) => {
    const playlist = await createPlaylist(account.client, { title, isPublic: false });
    expect((await addTracks(account.client, playlist.id, [first.id, second.id])).status).toBe(200);
    return playlist.id;
  };
  const [listened, renamed, deleted] = [await made("Road"), await made("Old"), await made("Gone")];
  // Stars, a rating, a play, a song now playing and a play queue: the optional members a
  // listener's answers carry.
  const writes: [string, Args][] = [
    ["star", { id: first.id, albumId: album.id, artistId: artist.id }],
    ["setRating", { id: first.id, rating: "4" }],
    ["scrobble", { id: first.id, submission: "true" }],
    ["scrobble", { id: second.id, submission: "false", c: "Shapes" }],
    ["savePlayQueue", { id: [first.id, second.id], current: second.id, position: "1000" }],
  ];
  for (const [method, args] of writes) {
    expect((await json(await call(method, { ...auth, ...args, f: "json" }))).status).toBe("ok");
  }
  const args: Record<string, Args> = {
    createPlaylist: { name: "New", songId: [second.id, first.id] },
    deletePlaylist: { id: deleted },
    getAlbum: { id: album.id },
    getAlbumInfo2: { id: album.id },
    getAlbumList2: { type: "newest" },
    getArtist: { id: artist.id },
    getArtistInfo2: { id: artist.id },
    getArtists: {},
    getGenres: {},
    getIndexes: {},
    getLicense: {},
    getLyricsBySongId: { id: first.id },
    getMusicDirectory: { id: album.id },
    getMusicFolders: {},
    getNowPlaying: {},
    getOpenSubsonicExtensions: {},
    getPlayQueue: {},
    getPlaylist: { id: listened },
    // The folder forms (folder-variants.ts) and what stays empty.
    getAlbumList: { type: "alphabeticalByName" },
    getStarred: {},
    search2: { query: first.title },
    getArtistInfo: { id: artist.id },
    getAlbumInfo: { id: album.id },
    getSimilarSongs: { id: artist.id },
    getLyrics: { artist: artist.username, title: first.title },
    getSongsByGenre: { genre: "Rock" },
    getPodcasts: {},
    getNewestPodcasts: {},
    getInternetRadioStations: {},
    getBookmarks: {},
    getShares: {},
    getChatMessages: {},
    getVideos: {},
    getPlaylists: {},
    getRandomSongs: { size: "3" },
    getScanStatus: {},
    getSimilarSongs2: { id: artist.id },
    getSong: { id: first.id },
    getStarred2: {},
    getTopSongs: { artist: artist.username },
    getUser: { username: account.username },
    ping: {},
    savePlayQueue: { id: first.id, current: first.id, position: "10" },
    scrobble: { id: second.id },
    search3: { query: first.title },
    setRating: { id: second.id, rating: "2" },
    star: { id: second.id },
    unstar: { id: second.id },
    updatePlaylist: { playlistId: renamed, name: "Renamed", songIdToAdd: single.id },
  };
  return { auth, args, ids: { album: album.id, playlist: listened, song: first.id } };
}

let world: Awaited<ReturnType<typeof fixtures>>;
beforeAll(async () => {
  world = await fixtures();
});

const answer = async (method: string, args: Args, f: "json" | "xml") => {
  const response = await call(method, { ...world.auth, ...args, f });
  if (f === "json") return await json(response);
  expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
  return xmlTree(await response.text());
};

describe("Subsonic answers against subsonic-api's declared shapes", () => {
  it.each(CHECKED_METHODS)("%s (JSON)", async (method) => {
    const args = world.args[method];
    expect(args, `a fixture for ${method}`).toBeDefined();
    const body = await answer(method, args ?? {}, "json");
    expect(body.status).toBe("ok");
    expect(shapeErrors(method, body)).toEqual([]);
  });

  it("an error answer has the shape every method's base answer declares", async () => {
    const body = await answer("getAlbum", { id: crypto.randomUUID() }, "json");
    expect(body.error.code).toBe(70);
    // The library declares a method's failure with the success's members (`album`) too: an error
    // is checked against the base answer the library gives every method (ping's).
    expect(shapeErrors("ping", body)).toEqual([]);
  });
});

describe("the check can fail", () => {
  it("a song without its id, or isDir as a string, is refused", async () => {
    const body = (await answer("getAlbum", world.args.getAlbum ?? {}, "json")) as Answer;
    expect(shapeErrors("getAlbum", body)).toEqual([]);
    const [song] = body.album.song as Answer[];
    const { id: _, ...withoutId } = song as Answer;
    const broken = (changed: Answer) => ({ ...body, album: { ...body.album, song: [changed] } });
    expect(shapeErrors("getAlbum", broken(withoutId)).join("\n")).toMatch(/song\/0.*"id"/);
    expect(shapeErrors("getAlbum", broken({ ...song, isDir: "false" })).join("\n")).toMatch(
      /song\/0\/isDir/,
    );
    expect(shapeErrors("getAlbum", { ...body, status: "fine" })).not.toEqual([]);
  });

  it("an XML member written as an element where JSON has an attribute differs", () => {
    const twin = jsonShape({ status: "ok", song: { id: "1" } });
    const attribute = '<subsonic-response status="ok"><song id="1"/></subsonic-response>';
    const element = '<subsonic-response status="ok"><song><id>1</id></song></subsonic-response>';
    expect(xmlShape(xmlTree(attribute))).toEqual(twin);
    expect(xmlShape(xmlTree(element))).not.toEqual(twin);
  });
});

describe("XML answers mirror JSON ones", () => {
  const calls: [string, string, (ids: typeof world.ids) => Args][] = [
    ["getAlbum", "getAlbum", (ids) => ({ id: ids.album })],
    ["getArtists", "getArtists", () => ({})],
    ["search3", "search3", () => world.args.search3 ?? {}],
    ["getPlaylist", "getPlaylist", (ids) => ({ id: ids.playlist })],
    ["getOpenSubsonicExtensions", "getOpenSubsonicExtensions", () => ({})],
    ["getSong", "getSong", (ids) => ({ id: ids.song })],
    ["an error (70)", "getAlbum", () => ({ id: crypto.randomUUID() })],
  ];

  // getArtists and search3 read the whole catalogue, which other files change meanwhile (an artist
  // given a cover adds `coverArt`): the XML answer counts only when the JSON answers asked just
  // before and just after it have one shape, the catalogue's shape while it was asked.
  it.each(calls)("%s: the same elements and attributes", async (_, method, of) => {
    const args = of(world.ids);
    for (let attempt = 1; ; attempt++) {
      const before = jsonShape(await answer(method, args, "json"));
      const xml = xmlShape(await answer(method, args, "xml"));
      const after = jsonShape(await answer(method, args, "json"));
      if (attempt < 5 && JSON.stringify(before) !== JSON.stringify(after)) continue;
      expect(before).toEqual(after);
      expect(xml).toEqual(before);
      expect(xml.length).toBeGreaterThan(5);
      return;
    }
  });
});

describe("the schema file", () => {
  const regenerate = "regenerate: pnpm --filter @edge-music/worker run generate:subsonic-schemas";

  it("is generated from the current inputs, and not edited since", async () => {
    const dev = manifest.devDependencies as Record<string, string>;
    const inputs = await inputsHash({
      script,
      types,
      library: dev["subsonic-api"],
      generator: dev["ts-json-schema-generator"],
    });
    expect(schemas.inputs, regenerate).toBe(inputs);
    const { $comment: _, inputs: __, contents, ...generated } = schemas;
    expect(contents, regenerate).toBe(await contentsHash(generated));
  });

  it("knows every method the door serves: checked, or why not", () => {
    const known = [...Object.keys(schemas.methods), ...Object.keys(schemas.unchecked)];
    expect(known.sort()).toEqual([...METHOD_NAMES].sort());
  });
});
