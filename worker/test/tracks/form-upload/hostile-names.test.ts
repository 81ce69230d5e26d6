import { describe, expect, it } from "vitest";
import { registerAccount } from "../../support/auth.ts";
import { expectProblem } from "../../support/problem.ts";
import {
  bucket,
  filePart,
  keysWhere,
  mp3,
  multipart,
  postUpload,
  textPart,
  trackRowsOf,
} from "./support.ts";

// A file name is the client's to choose. It becomes part of the source's storage key and of the
// conversion job's id, so it must never steer where the object goes or carry control characters.
// The ordinary case ("My Song (final).wav" → My_Song_final_.wav) is in test/uploads/upload.test.ts.

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const hostileNames: Array<[string, string, string[]]> = [
  // [what, the raw filename parameter, substrings that must not survive]
  ["a relative path up to /etc", "../../etc/passwd", ["/", ".."]],
  ["a Windows path", "..\\\\..\\\\windows\\\\win.ini", ["\\", ".."]],
  ["an absolute path", "/var/lib/postgres/data.mp3", ["/"]],
  ["a percent-encoded path", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", ["%", "/"]],
  ["a NUL byte", "a\u0000b.mp3", ["\u0000"]],
  ["control characters", "tab\there\u001b[31mred\u007f.mp3", ["\t", "\u001b", "\u007f"]],
  ["a right-to-left override", "evil\u202Egpj.mp3", ["\u202E"]],
  ["markup", "<script>alert(1)</script>.mp3", ["<", ">"]],
  ["an escaped quote", 'x\\".mp3', ['"', "\\"]],
  ["only dots", "..", [".."]],
  ["a name of 4,000 characters", `${"a".repeat(4000)}.mp3`, []],
];

describe("POST /api/v1/tracks: hostile file names", () => {
  it.each(hostileNames)(
    "%s: stored under a clean key in the track's folder",
    async (_what, raw, banned) => {
      const artist = await registerAccount("artist");
      const { bytes, boundary } = multipart([
        textPart("title", "Named"),
        filePart("file", raw, mp3()),
      ]);
      const response = await postUpload(artist, bytes, boundary);
      expect(response.status).toBe(202);
      const text = await response.text();
      const { id } = JSON.parse(text) as { id: string };
      const [row] = await trackRowsOf(artist.id);
      const fileName = row?.sourceFileName ?? "";
      expect(fileName).toMatch(SAFE_NAME);
      expect(row?.sourceKey).toBe(`tracks/${id}/source/${fileName}`);
      for (const bad of banned) expect(fileName).not.toContain(bad);
      // The object is there, and it is the only one the upload made.
      expect(await keysWhere(`tracks/${id}/`, () => true)).toEqual([row?.sourceKey]);
      // Nothing of the raw name is echoed.
      expect(text).not.toContain(raw.slice(0, 20));
    },
  );

  it("a CRLF in the name cannot add a header to the part (the name is dropped)", async () => {
    const artist = await registerAccount("artist");
    const { bytes, boundary } = multipart([
      textPart("title", "Injected"),
      filePart("file", "song.mp3\r\nContent-Type: text/html", mp3(), "audio/mpeg"),
    ]);
    const response = await postUpload(artist, bytes, boundary);
    expect(response.status).toBe(202);
    const [row] = await trackRowsOf(artist.id);
    expect(row?.sourceFileName).toMatch(SAFE_NAME);
    const stored = await bucket().head(row?.sourceKey ?? "");
    expect(stored?.httpMetadata?.contentType).toBe("audio/mpeg");
  });

  it("part headers longer than 8 KiB (a name of 10,000 characters): 400 and nothing kept", async () => {
    const artist = await registerAccount("artist");
    const marker = crypto.randomUUID();
    const { bytes, boundary } = multipart([
      textPart("title", "Too long"),
      filePart("file", `${marker}${"b".repeat(10_000)}.mp3`, mp3()),
    ]);
    await expectProblem(await postUpload(artist, bytes, boundary), 400, "MALFORMED_REQUEST");
    expect(await trackRowsOf(artist.id)).toEqual([]);
    expect(await keysWhere("tracks/", (key) => key.includes(marker))).toEqual([]);
  });

  it("an unknown field's name is not echoed raw in the problem", async () => {
    const artist = await registerAccount("artist");
    const name = "x\u202E<img src=x onerror=alert(1)>\u0000\u001b";
    const { bytes, boundary } = multipart([textPart(name, "v"), filePart("file", "a.mp3", mp3())]);
    const problem = await expectProblem(
      await postUpload(artist, bytes, boundary),
      400,
      "MALFORMED_REQUEST",
    );
    for (const bad of ["\u202E", "<", ">", "\u0000", "\u001b"]) {
      expect(problem.detail).not.toContain(bad);
    }
    expect(await trackRowsOf(artist.id)).toEqual([]);
  });
});
