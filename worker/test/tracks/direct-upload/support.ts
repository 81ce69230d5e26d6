import { expect, inject } from "vitest";
import { s3Storage } from "../../../src/storage/s3.ts";
import { app, Client, type Registered, registerAccount } from "../../support/auth.ts";
import { send, testBindings } from "../../support/env.ts";

export const MIB = 1024 * 1024;
const infra = inject("infra");
/** The Worker on S3 over HTTP (the S3-compatible test server), as R2's S3 API in production. */
export const S3_BINDINGS = {
  STORAGE_DRIVER: "s3",
  S3_ENDPOINT: infra.s3.endpoint,
  S3_REGION: infra.s3.region,
  S3_BUCKET: infra.s3.bucket,
  S3_ACCESS_KEY_ID: infra.s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: infra.s3.secretAccessKey,
} as const;
export const storage = () => s3Storage(infra.s3);

/** A WAV file of `size` bytes: a RIFF/WAVE header, then silence. */
export function wav(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, size - 8, true);
  ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, 44_100, true);
  view.setUint32(28, 44_100 * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, size - 44, true);
  return bytes;
}

export interface Started {
  uploadId: string;
  partSize: number;
  parts: Array<{ partNumber: number; url: string }>;
  expiresAt: string;
}

export const artist = () => registerAccount("artist", new Client(undefined, S3_BINDINGS));

export async function start(account: Registered, file: Uint8Array, extra: object = {}) {
  const response = await account.client.post("/api/v1/uploads", {
    title: "Long take",
    filename: "Long Take (master).wav",
    contentType: "audio/wav",
    size: file.length,
    ...extra,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Started;
}

/** PUTs each part to its presigned URL, as a browser or a tool would; the parts with ETags. */
export async function sendParts(started: Started, file: Uint8Array) {
  return await Promise.all(
    started.parts.map(async ({ partNumber, url }) => {
      const from = (partNumber - 1) * started.partSize;
      const put = await fetch(url, {
        method: "PUT",
        body: file.slice(from, from + started.partSize),
      });
      expect(put.status).toBe(200);
      return { partNumber, etag: put.headers.get("etag") ?? "" };
    }),
  );
}

/**
 * PUTs one part through the Worker (PUT /uploads/{id}/parts/{n}), as a same-origin browser does:
 * with its Content-Length, unless `length` says another (or null: none).
 */
export async function putPart(
  client: Client,
  uploadId: string,
  partNumber: number | string,
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
  length: number | null = body instanceof Uint8Array ? body.length : null,
  contentType: string | null = "application/octet-stream",
) {
  const path = `/api/v1/uploads/${uploadId}/parts/${partNumber}`;
  const cookie = client.jar.header(path);
  const response = await send(
    app,
    path,
    {
      method: "PUT",
      headers: {
        "cf-connecting-ip": client.ip,
        ...(contentType !== null ? { "content-type": contentType } : {}),
        ...(cookie ? { cookie } : {}),
        ...(length !== null ? { "content-length": String(length) } : {}),
      },
      body,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit,
    testBindings(client.bindings),
  );
  client.jar.take(response);
  return response;
}

/** Sends each part through the Worker; the parts with the ETags it answered. */
export async function sendPartsViaApi(
  account: Registered,
  started: Started,
  file: Uint8Array<ArrayBuffer>,
) {
  const parts: Array<{ partNumber: number; etag: string }> = [];
  for (const { partNumber } of started.parts) {
    const from = (partNumber - 1) * started.partSize;
    const response = await putPart(
      account.client,
      started.uploadId,
      partNumber,
      file.slice(from, from + started.partSize),
    );
    expect(response.status).toBe(200);
    parts.push((await response.json()) as { partNumber: number; etag: string });
  }
  return parts;
}
