import { MalformedRequestError } from "../errors/app-error.ts";

/**
 * A streaming multipart/form-data parser: each part's body is a stream read straight from the
 * request, so a 100 MB upload never sits in a Worker's memory (128 MB). Parsers on npm that run in
 * workerd buffer whole parts.
 */
export interface StreamedPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  /** Read it (or leave it): the next part is parsed only after this one is consumed or skipped. */
  body: ReadableStream<Uint8Array>;
}

const CRLF = new Uint8Array([13, 10]);
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const encoder = new TextEncoder();

export function boundaryOf(contentType: string | undefined): string {
  const match = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(
    contentType ?? "",
  );
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new MalformedRequestError("Send multipart/form-data with a boundary.");
  return boundary;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  for (
    let i = haystack.indexOf(first ?? 0, from);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first ?? 0, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

const concat = (a: Uint8Array, b: Uint8Array) => {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

function parseHeaders(block: string) {
  const headers = new Map<string, string>();
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get("content-disposition") ?? "";
  const param = (key: string) =>
    new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i")
      .exec(disposition)?.[1]
      ?.replace(/\\(.)/g, "$1") ??
    new RegExp(`;\\s*${key}=([^;\\s"]+)`, "i").exec(disposition)?.[1];
  const name = param("name");
  if (!/^form-data\b/i.test(disposition) || name === undefined) {
    throw new MalformedRequestError("A multipart part has no form-data name.");
  }
  return { name, filename: param("filename"), contentType: headers.get("content-type") };
}

export async function* parseMultipartStream(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  options: { maxParts?: number } = {},
): AsyncGenerator<StreamedPart> {
  const reader = body.getReader();
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  // The body starts with "--boundary" (no CRLF before the first one): pretend there was one.
  let buf: Uint8Array = CRLF;
  let ended = false;
  const more = async () => {
    // A body that fails while it is read (the client's connection broke) is the client's
    // incomplete request, a 400 like a body that ends early, not a fault of ours (500).
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw new MalformedRequestError("The request body broke off before its end.", {
        cause: error,
      });
    });
    if (done) ended = true;
    else buf = concat(buf, value);
    return !done;
  };
  const need = async (n: number) => {
    while (buf.length < n)
      if (!(await more())) throw new MalformedRequestError("The multipart body ends early.");
  };
  /** Reads until `needle` is in the buffer and returns its index; `tooLong` bounds the wait. */
  const find = async (needle: Uint8Array, tooLong: () => void) => {
    for (;;) {
      const index = indexOf(buf, needle);
      if (index !== -1) return index;
      if (buf.length > MAX_HEADER_BYTES) tooLong();
      if (!(await more())) throw new MalformedRequestError("The multipart body ends early.");
    }
  };

  // The preamble (rarely sent) is skipped without keeping more than a header's worth of it.
  const at = await find(delimiter, () => {
    buf = buf.slice(-delimiter.length);
  });
  buf = buf.slice(at + delimiter.length);
  let parts = 0;
  try {
    for (;;) {
      await need(2);
      if (buf[0] === 45 && buf[1] === 45) return; // "--": the closing delimiter
      // Transport padding after the delimiter is allowed; then CRLF.
      const garbage = () => {
        throw new MalformedRequestError("Garbage after a multipart boundary.");
      };
      const crlf = await find(CRLF, garbage);
      // `find` bounds only the waiting; what arrived in one chunk is bounded here.
      if (crlf > MAX_HEADER_BYTES) garbage();
      buf = buf.slice(crlf + 2);
      const headersTooLong = () => {
        throw new MalformedRequestError("A multipart part's headers are too long.");
      };
      const end = await find(HEADER_END, headersTooLong);
      if (end > MAX_HEADER_BYTES) headersTooLong();
      if (++parts > (options.maxParts ?? 16))
        throw new MalformedRequestError("Too many multipart parts.");
      const headers = parseHeaders(new TextDecoder().decode(buf.subarray(0, end)));
      buf = buf.slice(end + 4);

      let finished = false;
      const partBody = new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (;;) {
            const found = indexOf(buf, delimiter);
            if (found !== -1) {
              if (found > 0) controller.enqueue(buf.slice(0, found));
              buf = buf.slice(found + delimiter.length);
              finished = true;
              controller.close();
              return;
            }
            // Everything but a possible delimiter prefix at the end can go out now.
            const safe = buf.length - (delimiter.length - 1);
            if (safe > 0) {
              controller.enqueue(buf.slice(0, safe));
              buf = buf.slice(safe);
              return;
            }
            if (!(await more()))
              throw new MalformedRequestError("The multipart body ends inside a part.");
          }
        },
      });
      yield { ...headers, body: partBody };
      if (!finished) {
        // The consumer left (part of) the body: skip it to reach the next part.
        const rest = partBody.getReader();
        while (!(await rest.read()).done) {}
      }
      if (ended && buf.length === 0)
        throw new MalformedRequestError("The multipart body ends early.");
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
