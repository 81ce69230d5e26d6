import { expect } from "vitest";
import { parseEnv } from "../../../src/env.ts";
import { createStorage } from "../../../src/storage/index.ts";
import { type Client, uniqueName } from "../../support/auth.ts";
import { testBindings } from "../../support/env.ts";
import { IMAGE_BYTES } from "../../support/factories.ts";

/** The storage the app itself uses in these tests (the R2 binding MEDIA). */
export const storage = () => createStorage(parseEnv(testBindings()));

export const json = async <T = Record<string, unknown>>(response: Response): Promise<T> =>
  (await response.json()) as T;

/** A PNG of `size` bytes: the real signature, then padding (enough for content sniffing). */
export function png(size = IMAGE_BYTES.png.length): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(IMAGE_BYTES.png.subarray(0, Math.min(size, IMAGE_BYTES.png.length)));
  return bytes;
}

/** A multipart form of text fields and files (`[bytes, file name]`). */
export function form(fields: Record<string, string | [Uint8Array<ArrayBuffer>, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") data.append(name, value);
    else data.append(name, new File([value[0]], value[1]));
  }
  return data;
}

/** Creates an album through the API for the signed-in artist of `client`. */
export async function createAlbum(client: Client, body: Record<string, unknown> = {}) {
  const response = await client.post("/api/v1/albums", { title: uniqueName("Album "), ...body });
  expect(response.status).toBe(201);
  return await json<{ id: string; title: string; releasedAt: string | null }>(response);
}

/** Fetches a media path and returns its status, content type and bytes. */
export async function fetchMedia(client: Client, path: string) {
  const response = await client.get(path);
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

export const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
