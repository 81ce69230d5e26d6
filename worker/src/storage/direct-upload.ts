// Multipart uploads that a client sends straight to the bucket through presigned part URLs (S3's
// API: R2's S3 endpoint in production, the S3-compatible server locally). The Worker only starts,
// signs, completes and aborts them: the bytes never pass through it.
import { AwsClient } from "aws4fetch";
import type { Env } from "../env.ts";
import { StorageError } from "./port.ts";

export interface S3ApiConfig {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The bucket's S3 API as the environment configures it, or null (direct uploads are off). */
export function s3ApiConfig(env: Env): S3ApiConfig | null {
  const { S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: S3_ENDPOINT,
    region: S3_REGION,
    bucket: S3_BUCKET,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
  };
}

/** S3 refused the completion for what the client sent (a part missing, too small, out of order). */
export class MultipartRefusedError extends Error {
  constructor(
    readonly s3Code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CompletedPart {
  partNumber: number;
  etag: string;
}

const xmlText = (xml: string, tag: string) =>
  new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function directUploadStore(config: S3ApiConfig) {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: "s3",
    region: config.region,
  });
  const bucketUrl = `${config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(config.bucket)}`;
  const objectUrl = (key: string, query: Record<string, string>) => {
    const url = new URL(`${bucketUrl}/${key.split("/").map(encodeURIComponent).join("/")}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  };
  const send = (url: string, init: RequestInit) =>
    client.fetch(url, {
      ...init,
      headers: { "x-amz-content-sha256": "UNSIGNED-PAYLOAD", ...(init.headers ?? {}) },
    });

  return {
    /** CreateMultipartUpload: the storage's id of the new upload. */
    async start(key: string, contentType: string): Promise<string> {
      const response = await send(objectUrl(key, { uploads: "" }), {
        method: "POST",
        headers: { "content-type": contentType },
      });
      const xml = await response.text();
      const id = xmlText(xml, "UploadId");
      if (!response.ok || !id) {
        throw new StorageError(
          `S3 CreateMultipartUpload ${key} failed with ${response.status}: ${xml.slice(0, 300)}`,
        );
      }
      return id;
    },

    /** A URL that lets its holder PUT one part, and nothing else, until `expiresSeconds`. */
    async partUrl(key: string, multipartId: string, partNumber: number, expiresSeconds: number) {
      const url = objectUrl(key, {
        partNumber: String(partNumber),
        uploadId: multipartId,
        "X-Amz-Expires": String(expiresSeconds),
      });
      const signed = await client.sign(url, { method: "PUT", aws: { signQuery: true } });
      return signed.url;
    },

    /** CompleteMultipartUpload with the parts the client reports. */
    async complete(key: string, multipartId: string, parts: CompletedPart[]): Promise<void> {
      const body = `<CompleteMultipartUpload>${parts
        .map(
          (p) =>
            `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${escapeXml(p.etag)}</ETag></Part>`,
        )
        .join("")}</CompleteMultipartUpload>`;
      const response = await send(objectUrl(key, { uploadId: multipartId }), {
        method: "POST",
        body,
        headers: { "content-type": "application/xml" },
      });
      // S3 may answer 200 with an <Error> body when completing fails late.
      const xml = await response.text();
      if (response.ok && !xml.includes("<Error>")) return;
      const code = xmlText(xml, "Code");
      if (response.status >= 400 && response.status < 500 && code) {
        throw new MultipartRefusedError(code, xmlText(xml, "Message") ?? code);
      }
      throw new StorageError(
        `S3 CompleteMultipartUpload ${key} failed with ${response.status}: ${xml.slice(0, 300)}`,
      );
    },

    /** AbortMultipartUpload: the parts sent so far are dropped. An unknown upload is no error. */
    async abort(key: string, multipartId: string): Promise<void> {
      const response = await send(objectUrl(key, { uploadId: multipartId }), {
        method: "DELETE",
      });
      await response.body?.cancel();
      if (!response.ok && response.status !== 404) {
        throw new StorageError(`S3 AbortMultipartUpload ${key} failed with ${response.status}`);
      }
    },
  };
}
