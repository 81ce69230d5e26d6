import type { IncomingHttpHeaders, IncomingMessage } from "node:http";

/** A request as the stand-ins see it: the body is read in full before a handler runs. */
export interface StandInRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a handler answers; the server writes it. Handlers never touch the socket. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type Handler = (request: StandInRequest) => Reply | Promise<Reply>;

/** Routes keyed by `"<METHOD> <path>"`, e.g. `"POST /mail/emails"`. Paths are exact. */
export type Routes = Record<string, Handler>;

/** A body larger than this is refused (413): the largest legitimate one is a QR code PNG. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(value),
  };
}

export function text(status: number, message: string): Reply {
  return { status, headers: { "content-type": "text/plain; charset=utf-8" }, body: `${message}\n` };
}

export function redirect(location: URL): Reply {
  return { status: 302, headers: { location: location.toString() } };
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The media type of the request without parameters, lower-cased ("" when absent). */
export function mediaType(request: StandInRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The body parsed as a JSON object, or undefined when it is not one. */
export function jsonObject(request: StandInRequest): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(request.body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(request: StandInRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}
