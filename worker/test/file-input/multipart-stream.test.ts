import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MalformedRequestError } from "../../src/errors/app-error.ts";
import { boundaryOf, parseMultipartStream } from "../../src/file-input/multipart-stream.ts";

/** The bytes and boundary workerd itself produces for a FormData body. */
async function encode(form: FormData) {
  const request = new Request("http://x", { method: "POST", body: form });
  return {
    bytes: new Uint8Array(await request.arrayBuffer()),
    boundary: boundaryOf(request.headers.get("content-type") ?? ""),
  };
}

/** `bytes` as a stream of chunks of the given sizes (cycled). */
function chunked(bytes: Uint8Array, sizes: number[]) {
  let offset = 0;
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const size = Math.max(1, sizes[i++ % sizes.length] ?? 1);
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, boundary: string) {
  const parts: Array<{
    name: string;
    filename?: string | undefined;
    type?: string | undefined;
    data: string;
  }> = [];
  for await (const part of parseMultipartStream(stream, boundary)) {
    const data = await new Response(part.body).text();
    parts.push({ name: part.name, filename: part.filename, type: part.contentType, data });
  }
  return parts;
}

const sample = () => {
  const form = new FormData();
  form.set("title", 'Clair de lune — "Debussy"');
  form.set(
    "file",
    new File(["RIFF....WAVEfmt \r\n--not-a-boundary\r\n\r\n".repeat(50)], "song.wav", {
      type: "audio/wav",
    }),
  );
  form.set("empty", "");
  return form;
};

describe("streaming multipart parser", () => {
  it("reads fields and files as workerd encodes them", async () => {
    const { bytes, boundary } = await encode(sample());
    const parts = await collect(chunked(bytes, [65536]), boundary);
    expect(parts.map((p) => p.name)).toEqual(["title", "file", "empty"]);
    expect(parts[0]?.data).toBe('Clair de lune — "Debussy"');
    expect(parts[1]).toMatchObject({ filename: "song.wav", type: "audio/wav" });
    expect(parts[1]?.data).toBe("RIFF....WAVEfmt \r\n--not-a-boundary\r\n\r\n".repeat(50));
    expect(parts[2]?.data).toBe("");
  });

  it("gives the same parts however the body is chunked", async () => {
    const { bytes, boundary } = await encode(sample());
    const expected = await collect(chunked(bytes, [bytes.length]), boundary);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }),
        async (sizes) => {
          expect(await collect(chunked(bytes, sizes), boundary)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("skips parts the consumer does not read", async () => {
    const { bytes, boundary } = await encode(sample());
    const names: string[] = [];
    for await (const part of parseMultipartStream(chunked(bytes, [17]), boundary))
      names.push(part.name);
    expect(names).toEqual(["title", "file", "empty"]);
  });

  it.each([
    ["no boundary at all", "just some text"],
    ["a part that never ends", '--B\r\ncontent-disposition: form-data; name="a"\r\n\r\nabc'],
    ["headers that never end", '--B\r\ncontent-disposition: form-data; name="a"'],
    ["a part without a name", "--B\r\ncontent-type: text/plain\r\n\r\nabc\r\n--B--"],
  ])("refuses %s with a 400-class error", async (_name, text) => {
    await expect(collect(chunked(new TextEncoder().encode(text), [5]), "B")).rejects.toBeInstanceOf(
      MalformedRequestError,
    );
  });

  it("reads the boundary from the content type and refuses other types", () => {
    expect(boundaryOf('multipart/form-data; boundary="abc def"')).toBe("abc def");
    expect(boundaryOf("multipart/form-data; charset=utf-8; boundary=xyz")).toBe("xyz");
    expect(() => boundaryOf("application/json")).toThrow(MalformedRequestError);
    expect(() => boundaryOf(undefined)).toThrow(MalformedRequestError);
  });
});
