// Sending a Blob with upload progress, in a browser and in Node: XMLHttpRequest where it exists
// (fetch reports no upload progress in browsers), else fetch with a counting ReadableStream body.
import type { FetchLike } from "./session.ts";

export interface SendOptions {
  url: string;
  method: "POST" | "PUT";
  headers?: Record<string, string>;
  body: Blob;
  /** `include` for the API (cookies), `omit` for presigned storage URLs. */
  credentials: "include" | "omit";
  /** Bytes of `body` sent so far; rises, and ends at body.size when the whole body went out. */
  onSent?: (bytes: number) => void;
  signal?: AbortSignal;
}

/** Slices read from the Blob at a time: small enough for frequent progress. */
const CHUNK = 256 * 1024;

/**
 * The part of XMLHttpRequest used here, declared so that the client compiles without the DOM
 * library (Node packages import it too).
 */
interface Xhr {
  open(method: string, url: string): void;
  withCredentials: boolean;
  setRequestHeader(name: string, value: string): void;
  upload: {
    onprogress: ((event: { loaded: number }) => void) | null;
    onload: (() => void) | null;
  };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;
  getAllResponseHeaders(): string;
}
type XhrConstructor = new () => Xhr;

export function sendWithProgress(fetch: FetchLike, options: SendOptions): Promise<Response> {
  const XHR = (globalThis as { XMLHttpRequest?: XhrConstructor }).XMLHttpRequest;
  return XHR ? sendXhr(XHR, options) : sendFetch(fetch, options);
}

function sendFetch(fetch: FetchLike, options: SendOptions): Promise<Response> {
  const { body, onSent } = options;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= body.size) {
        controller.close();
        return;
      }
      const chunk = new Uint8Array(await body.slice(offset, offset + CHUNK).arrayBuffer());
      offset += chunk.byteLength;
      controller.enqueue(chunk);
      onSent?.(offset);
    },
  });
  if (body.size === 0) onSent?.(0);
  const init = {
    method: options.method,
    // A stream has no length of its own: declared, the server can refuse an oversized body early.
    headers: { ...options.headers, "content-length": String(body.size) },
    body: stream,
    // Required by fetch for a stream body: the request is sent while the answer may start.
    duplex: "half",
    credentials: options.credentials,
    ...(options.signal ? { signal: options.signal } : {}),
  } as RequestInit;
  return fetch(options.url, init);
}

function sendXhr(XHR: XhrConstructor, options: SendOptions): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XHR();
    xhr.open(options.method, options.url);
    xhr.withCredentials = options.credentials === "include";
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => options.onSent?.(Math.min(event.loaded, options.body.size));
    xhr.upload.onload = () => options.onSent?.(options.body.size);
    xhr.onload = () => resolve(xhrResponse(xhr));
    xhr.onerror = () => reject(new TypeError(`network error: ${options.method} ${options.url}`));
    xhr.onabort = () => reject(new DOMException("The upload was aborted.", "AbortError"));
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(options.body);
  });
}

/** The XHR's answer as a fetch Response (statuses without a body get none). */
function xhrResponse(xhr: Xhr): Response {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const empty = [101, 204, 205, 304].includes(xhr.status);
  return new Response(empty ? null : xhr.responseText, {
    status: xhr.status,
    statusText: xhr.statusText,
    headers,
  });
}
