import { describe, expect, it } from "vitest";
import { createPlaylist } from "../../playlists/support.ts";
import { app, Client, type Registered, registerAccount } from "../../support/auth.ts";
import { send } from "../../support/env.ts";
import { IMAGE_BYTES, insertTrack } from "../../support/factories.ts";
import { expectProblem } from "../../support/problem.ts";
import { createAlbum } from "../catalogue/support.ts";
import {
  bucket,
  concat,
  filePart,
  keysWhere,
  mp3,
  multipart,
  objectsHolding,
  postUpload,
  textPart,
  trackRowsOf,
} from "./support.ts";

// Covered elsewhere: text named .png (415) and images over 5 MB (413) on every image route
// (test/playlists/cover.test.ts, test/artists/profile.test.ts, test/tracks/update.test.ts,
// test/albums/write.test.ts); text named .mp3 (415) in test/uploads/upload.test.ts.

const text = (value: string) => new TextEncoder().encode(value);
const HTML = "<!DOCTYPE html><html><script>fetch('/api/v1/users/me')</script></html>";
const ZIP = concat([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0]), text("evil.js")]);

/** Bytes with a unique tail, so an object made from them can be found in the bucket. */
const unique = (bytes: Uint8Array) => concat([bytes, text(`<!-- ${crypto.randomUUID()} -->`)]);

describe("POST /api/v1/tracks: polyglot audio", () => {
  it("MP3 with HTML, ZIP and PNG inside is audio: stored as audio/mpeg whatever the part claims", async () => {
    const artist = await registerAccount("artist");
    const { bytes, boundary } = multipart([
      textPart("title", "Polyglot"),
      filePart(
        "file",
        "song.html",
        mp3(2048, concat([text(HTML), ZIP, IMAGE_BYTES.png])),
        "text/html",
      ),
    ]);
    const response = await postUpload(artist, bytes, boundary);
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    const [row] = await trackRowsOf(artist.id);
    const stored = await bucket().head(row?.sourceKey ?? "");
    expect(stored?.httpMetadata?.contentType).toBe("audio/mpeg");
    // The source is never served: no public route can name it.
    for (const file of [`..%2Fsource%2F${row?.sourceFileName}`, "..%2F..%2Fsource"]) {
      const served = await new Client().get(`/api/v1/tracks/stream/${id}/audio/${file}`);
      expect([400, 404]).toContain(served.status);
      expect(await served.text()).not.toContain("<script>");
    }
  });

  it.each([
    ["HTML with an MP3 frame later", concat([text(HTML), mp3()])],
    ["a ZIP with an MP3 frame later", concat([ZIP, mp3()])],
    ["a PNG with an MP3 frame later", concat([IMAGE_BYTES.png, mp3()])],
    ["a GIF", concat([text("GIF89a"), mp3()])],
    ["an MP3 sync word without a valid layer", new Uint8Array([0xff, 0xe0, 0, 0, ...mp3()])],
  ])("%s, named .mp3 and sent as audio/mpeg: 415, no row, no object", async (_name, body) => {
    const artist = await registerAccount("artist");
    const name = `poly-${crypto.randomUUID()}.mp3`;
    const { bytes, boundary } = multipart([
      textPart("title", "Not audio"),
      filePart("file", name, body, "audio/mpeg"),
    ]);
    await expectProblem(await postUpload(artist, bytes, boundary), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await trackRowsOf(artist.id)).toEqual([]);
    expect(await keysWhere("tracks/", (key) => key.endsWith(`/${name}`))).toEqual([]);
  });

  it("an empty file part: 400, no row", async () => {
    const artist = await registerAccount("artist");
    const { bytes, boundary } = multipart([
      textPart("title", "Empty"),
      filePart("file", "a.mp3", ""),
    ]);
    const problem = await expectProblem(
      await postUpload(artist, bytes, boundary),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path: "form.file" })]);
    expect(await trackRowsOf(artist.id)).toEqual([]);
  });
});

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>`;
/** Valid GIF header bytes that are also a JavaScript program (`GIF89a=…`). */
const GIF_JS = concat([
  text("GIF89a/*"),
  new Uint8Array([1, 0, 1, 0, 0, 0xff, 0xff]),
  text("*/=alert(document.domain);//"),
]);
const hostileImages: Array<[string, Uint8Array, string, string]> = [
  ["an SVG with a script", text(SVG), "cover.svg", "image/svg+xml"],
  ["a GIF/JavaScript polyglot named .png", GIF_JS, "cover.png", "image/png"],
];
/** Text named .png is refused on the image routes already (see above); not yet as an upload's cover. */
const hostileCovers = [
  ...hostileImages,
  ["HTML named .png", text(HTML), "cover.png", "image/png"],
] as typeof hostileImages;

describe("POST /api/v1/tracks: a hostile cover after a stored file", () => {
  it.each(hostileCovers)(
    "%s: 415, and the audio already stored is deleted",
    async (_name, image, fileName, type) => {
      const artist = await registerAccount("artist");
      const name = `covered-${crypto.randomUUID()}.mp3`;
      const cover = unique(image);
      const { bytes, boundary } = multipart([
        textPart("title", "Cover last"),
        filePart("file", name, mp3()),
        filePart("cover", fileName, cover, type),
      ]);
      await expectProblem(await postUpload(artist, bytes, boundary), 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(await trackRowsOf(artist.id)).toEqual([]);
      expect(await keysWhere("tracks/", (key) => key.endsWith(`/${name}`))).toEqual([]);
      expect(await objectsHolding("static/", cover)).toEqual([]);
    },
  );
});

/** Every route that takes an image, with a resource of a fresh owner and how to read it back. */
interface ImageRoute {
  name: string;
  kind: "user" | "artist";
  field: string;
  target(owner: Registered): Promise<string>;
  /** The media path the resource holds now (null when none). */
  current(owner: Registered, path: string): Promise<string | null>;
}

const read = async (client: Client, path: string, key: string) =>
  ((await (await client.get(path)).json()) as Record<string, string | null>)[key] ?? null;

const imageRoutes: ImageRoute[] = [
  {
    name: "playlist cover",
    kind: "user",
    field: "cover",
    target: async (o) => `/api/v1/playlists/${(await createPlaylist(o.client)).id}`,
    current: (o, path) => read(o.client, path, "cover"),
  },
  {
    name: "artist avatar",
    kind: "artist",
    field: "avatar",
    target: async (o) => `/api/v1/artists/${o.id}`,
    current: (o, path) => read(o.client, path, "avatar"),
  },
  {
    name: "artist background",
    kind: "artist",
    field: "backgroundImage",
    target: async (o) => `/api/v1/artists/${o.id}`,
    current: (o, path) => read(o.client, path, "backgroundImage"),
  },
  {
    name: "track cover",
    kind: "artist",
    field: "cover",
    target: async (o) => `/api/v1/tracks/${(await insertTrack(o.id)).id}`,
    current: (o, path) => read(o.client, path, "cover"),
  },
  {
    name: "album cover",
    kind: "artist",
    field: "cover",
    target: async (o) => `/api/v1/albums/${(await createAlbum(o.client)).id}`,
    current: (o, path) => read(o.client, path, "cover"),
  },
];

const putImage = (
  owner: Registered,
  path: string,
  field: string,
  image: Uint8Array,
  name: string,
  type: string,
) => {
  const form = new FormData();
  form.set(field, new File([image as Uint8Array<ArrayBuffer>], name, { type }));
  return owner.client.form("PUT", path, form);
};

describe.each(imageRoutes.map((r) => [r.name, r] as const))(
  "%s: hostile images",
  (_name, route) => {
    it.each(hostileImages)(
      "%s: 415, nothing stored, the resource unchanged",
      async (_what, image, name, type) => {
        const owner = await registerAccount(route.kind);
        const path = await route.target(owner);
        const bytes = unique(image);
        await expectProblem(
          await putImage(owner, path, route.field, bytes, name, type),
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        );
        expect(await route.current(owner, path)).toBeNull();
        expect(await objectsHolding("static/", bytes)).toEqual([]);
      },
    );

    it("a PNG with a script appended is stored and served as image/png, never as markup", async () => {
      const owner = await registerAccount(route.kind);
      const path = await route.target(owner);
      const bytes = unique(concat([IMAGE_BYTES.png, text(HTML)]));
      const response = await putImage(owner, path, route.field, bytes, "x.html", "text/html");
      expect(response.status).toBe(200);
      const media = await route.current(owner, path);
      expect(media).toMatch(/^\/static\/\w+\/[0-9a-f-]{36}\.png$/);
      // The control for the "nothing stored" checks: this object is found by its bytes.
      expect(await objectsHolding("static/", bytes)).toEqual([media?.slice(1)]);
      const served = await new Client().get(media ?? "");
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    });

    it("413 for a declared Content-Length far over the limit, before reading the body", async () => {
      const owner = await registerAccount(route.kind);
      const path = await route.target(owner);
      let read = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            read += 16 * 1024;
            controller.enqueue(new Uint8Array(16 * 1024));
          },
        },
        { highWaterMark: 0 },
      );
      const response = await send(app, path, {
        method: "PUT",
        body,
        headers: {
          cookie: `access_token=${owner.client.jar.get("access_token")}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(10 * 1024 ** 3),
        },
      });
      await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
      expect(read).toBeLessThan(64 * 1024);
      expect(await route.current(owner, path)).toBeNull();
    });
  },
);
