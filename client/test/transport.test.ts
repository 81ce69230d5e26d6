// The browser half of the uploads, XMLHttpRequest with upload progress, against a stand-in XHR
// (Node has none): what it is given, and how its answer becomes a Response.
import { afterEach, expect, test, vi } from "vitest";
import { sendWithProgress } from "../src/transport.ts";

class FakeXhr {
  static last: FakeXhr | undefined;
  method = "";
  url = "";
  withCredentials = false;
  headers: Record<string, string> = {};
  upload = {
    onprogress: null as ((event: { loaded: number }) => void) | null,
    onload: null as (() => void) | null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = "";
  responseText = "";
  sent: Blob | undefined;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.sent = body;
  }
  abort() {
    this.onabort?.();
  }
  getAllResponseHeaders() {
    return 'content-type: application/json\r\netag: "abc"\r\n';
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

test("sends the Blob by XMLHttpRequest with credentials and reports its progress", async () => {
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  const seen: number[] = [];
  const fetch = vi.fn();
  const body = new Blob([new Uint8Array(1000)]);
  const answer = sendWithProgress(fetch, {
    url: "https://api.example.test/api/v1/tracks",
    method: "POST",
    headers: { "content-type": "multipart/form-data; boundary=x" },
    body,
    credentials: "include",
    onSent: (bytes) => seen.push(bytes),
  });
  const xhr = FakeXhr.last as FakeXhr;
  expect(xhr).toMatchObject({ method: "POST", withCredentials: true, sent: body });
  expect(xhr.headers["content-type"]).toBe("multipart/form-data; boundary=x");
  xhr.upload.onprogress?.({ loaded: 400 });
  xhr.upload.onprogress?.({ loaded: 1000 });
  xhr.upload.onload?.();
  Object.assign(xhr, { status: 202, statusText: "Accepted", responseText: '{"id":"t"}' });
  xhr.onload?.();

  const response = await answer;
  expect(fetch).not.toHaveBeenCalled();
  expect(seen).toEqual([400, 1000, 1000]);
  expect(response.status).toBe(202);
  expect(response.headers.get("etag")).toBe('"abc"');
  expect(await response.json()).toEqual({ id: "t" });
});

test("a storage PUT goes without credentials, and a network error rejects", async () => {
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  const answer = sendWithProgress(vi.fn(), {
    url: "https://bucket.example.test/part",
    method: "PUT",
    body: new Blob(["part"]),
    credentials: "omit",
  });
  const xhr = FakeXhr.last as FakeXhr;
  expect(xhr.withCredentials).toBe(false);
  xhr.onerror?.();
  await expect(answer).rejects.toThrow(/network error/);
});
