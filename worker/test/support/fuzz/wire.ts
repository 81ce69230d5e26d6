import { expect } from "vitest";
import { textOf } from "../body.ts";
import { IMAGE_BYTES } from "../factories.ts";
import type { RequestSpec } from "./requests.ts";
import type { FilePart } from "./schema-arbitrary.ts";

/** Fuzzed requests on the wire, and the one check every answer must pass. */

const FILE_BYTES: Record<FilePart["file"], () => Uint8Array<ArrayBuffer>> = {
  png: () => IMAGE_BYTES.png,
  jpg: () => IMAGE_BYTES.jpg,
  webp: () => IMAGE_BYTES.webp,
  text: () => new TextEncoder().encode("not an image at all"),
  empty: () => new Uint8Array(0),
  zeros: () => new Uint8Array(2048),
};

const BOUNDARY = "fuzz-boundary-7d2a9b3c";
const encoder = new TextEncoder();

function multipart(fields: Array<[string, string | FilePart]>): Uint8Array<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  for (const [name, value] of fields) {
    const file = typeof value === "string" ? "" : `; filename="${value.name}"`;
    const type = typeof value === "string" ? "" : "\r\ncontent-type: application/octet-stream";
    chunks.push(
      encoder.encode(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"${file}${type}\r\n\r\n`,
      ),
      typeof value === "string" ? encoder.encode(value) : FILE_BYTES[value.file](),
      encoder.encode("\r\n"),
    );
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The Request a spec describes; `sessionCookie` is the caller's `name=value; …` header. */
export function toRequest(
  spec: RequestSpec,
  sessionCookie: string | undefined,
  clientIp: string,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(spec.headers)) headers.set(name, value);
  const cookies = [spec.cookie.session ? sessionCookie : undefined, spec.cookie.odd].filter(
    (c) => c,
  );
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  if (!headers.has("cf-connecting-ip")) headers.set("cf-connecting-ip", clientIp);
  let body: BodyInit | undefined;
  if (spec.body?.kind === "json") {
    headers.set("content-type", spec.body.contentType);
    body = JSON.stringify(spec.body.value) ?? "";
  } else if (spec.body?.kind === "raw") {
    if (spec.body.contentType) headers.set("content-type", spec.body.contentType);
    body = spec.body.text;
  } else if (spec.body?.kind === "form") {
    // Written by hand, not with FormData, which refuses some names a hostile client can send.
    headers.set("content-type", `multipart/form-data; boundary=${BOUNDARY}`);
    body = multipart(spec.body.fields);
  }
  return new Request(new URL(spec.url, "http://localhost"), {
    method: spec.method,
    headers,
    redirect: "manual",
    ...(body === undefined ? {} : { body }),
  });
}

/**
 * What every answer must be, whatever was sent: never a 5xx; a 4xx is an RFC 9457 problem
 * document of our shape whose `status` is the response's.
 */
export async function expectWellFormed(response: Response, spec: RequestSpec): Promise<void> {
  const where = `${spec.method} ${spec.url.slice(0, 200)}`;
  const text = await textOf(response);
  // 501 NOT_IMPLEMENTED is an answer, not a failure: a form the service does not make (oEmbed's
  // XML, which the spec answers so); it is still checked as a problem document below.
  const declined = response.status === 501 && text.includes('"NOT_IMPLEMENTED"');
  if (!declined) {
    expect(
      response.status,
      `${where} answered ${response.status}: ${text.slice(0, 500)}`,
    ).toBeLessThan(500);
  }
  if (response.status < 400) return;
  expect(response.headers.get("content-type"), where).toBe("application/problem+json");
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body, where).toMatchObject({
    type: expect.stringMatching(/^urn:problem-type:/),
    title: expect.any(String),
    status: response.status,
    code: expect.stringMatching(/^[A-Z_]+$/),
    requestId: expect.any(String),
  });
  expect(body.requestId, where).toBe(response.headers.get("x-request-id"));
}
