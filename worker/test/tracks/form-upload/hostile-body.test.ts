import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";
import {
  filePart,
  keysWhere,
  mp3,
  multipart,
  postUpload,
  textPart,
  trackRowsOf,
} from "./support.ts";

// Covered elsewhere: a file over MAX_UPLOAD_BYTES that is really sent (413), text named .mp3
// (415), a missing title or file (400), a body that is not multipart (415), the queue down (503):
// test/uploads/upload.test.ts. Parser framing errors as a unit: test/media/multipart-stream.test.ts.

/** A stream that hands out `bytes`, then ends or fails as told, counting what was read of it. */
function stream(bytes: Uint8Array, end: "close" | "error" | "never") {
  const read = { bytes: 0 };
  let offset = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset < bytes.length) {
          const chunk = bytes.slice(offset, offset + 16 * 1024);
          offset += chunk.length;
          read.bytes += chunk.length;
          controller.enqueue(chunk);
          return;
        }
        if (end === "close") return controller.close();
        if (end === "error") return controller.error(new Error("connection reset by peer"));
        read.bytes += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, read };
}

/** The upload's source objects whose key ends with the unique name the test sent. */
const sourcesNamed = (name: string) => keysWhere("tracks/", (key) => key.endsWith(`/${name}`));

describe("POST /api/v1/tracks: bodies that lie or break", () => {
  it("413 for a declared Content-Length over the limit, before reading the body", async () => {
    const artist = await registerAccount("artist");
    const { body, read } = stream(new Uint8Array(0), "never");
    const response = await postUpload(artist, body, "x", {
      "content-length": String(50 * 1024 ** 3),
    });
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(read.bytes).toBeLessThan(64 * 1024);
    expect(await trackRowsOf(artist.id)).toEqual([]);
  });

  it.each([
    ["small: the part ends before any delimiter", 4096],
    // Past one storage part (8 MiB), so a multipart upload to storage was already under way.
    ["large: storage had started a multipart upload", 9 * 1024 * 1024],
  ])("a body cut off inside the file part (%s): 400, no row, no object", async (_name, size) => {
    const artist = await registerAccount("artist");
    const name = `cut-${crypto.randomUUID()}.mp3`;
    const { bytes, boundary } = multipart([
      textPart("title", "Cut off"),
      filePart("file", name, mp3(size)),
    ]);
    // Everything but the closing delimiter and the last bytes of the file.
    const { body } = stream(bytes.slice(0, bytes.length - boundary.length - 64), "close");
    const response = await postUpload(artist, body, boundary);
    await expectProblem(response, 400, "MALFORMED_REQUEST");
    expect(await trackRowsOf(artist.id)).toEqual([]);
    expect(await sourcesNamed(name)).toEqual([]);
  });

  it.each([
    ["inside the file part", 4096],
    ["after storage started a multipart upload", 9 * 1024 * 1024],
  ])(
    "a body whose stream fails %s (the connection broke): 400, no row, no object",
    async (_name, size) => {
      const artist = await registerAccount("artist");
      const name = `reset-${crypto.randomUUID()}.mp3`;
      const { bytes, boundary } = multipart([
        textPart("title", "Reset"),
        filePart("file", name, mp3(size)),
      ]);
      const { body } = stream(bytes.slice(0, bytes.length - 256), "error");
      // Before the fix the read error escaped as an unhandled 500.
      await expectProblem(await postUpload(artist, body, boundary), 400, "MALFORMED_REQUEST");
      expect(await trackRowsOf(artist.id)).toEqual([]);
      expect(await sourcesNamed(name)).toEqual([]);
    },
  );

  it("a body cut off after a complete file but before the closing delimiter keeps nothing", async () => {
    const artist = await registerAccount("artist");
    const name = `late-${crypto.randomUUID()}.mp3`;
    const { bytes, boundary } = multipart([
      filePart("file", name, mp3()),
      textPart("title", "Late cut"),
    ]);
    // The file part is whole (its delimiter arrived); the title part never ends.
    const { body } = stream(bytes.slice(0, bytes.length - boundary.length - 10), "close");
    const response = await postUpload(artist, body, boundary);
    await expectProblem(response, 400, "MALFORMED_REQUEST");
    expect(await trackRowsOf(artist.id)).toEqual([]);
    expect(await sourcesNamed(name)).toEqual([]);
  });

  it("a second file part after a stored one: 400, and the first object is deleted", async () => {
    const artist = await registerAccount("artist");
    const name = `twice-${crypto.randomUUID()}.mp3`;
    const { bytes, boundary } = multipart([
      textPart("title", "Twice"),
      filePart("file", name, mp3()),
      filePart("file", `other-${name}`, mp3()),
    ]);
    const problem = await expectProblem(
      await postUpload(artist, bytes, boundary),
      400,
      "VALIDATION_FAILED",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ path: "form.file" })]);
    expect(await trackRowsOf(artist.id)).toEqual([]);
    expect(await sourcesNamed(name)).toEqual([]);
  });
});
