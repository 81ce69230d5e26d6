// Multipart uploads that a client sends straight to the bucket through presigned part URLs (S3's
// API: R2's S3 endpoint in production, the S3-compatible server locally). The Worker starts,
// signs, completes and aborts them; a part's bytes pass through it only when a browser cannot
// reach storage's origin (uploadPart, streamed).
import { AwsClient, AwsV4Signer } from "aws4fetch";
import type { Env } from "../env.ts";
import { StorageError, StorageUnavailableError } from "./port.ts";

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

/** Storage no longer knows the multipart upload (aborted, completed, or past its lifecycle rule). */
export class NoSuchMultipartError extends StorageError {
  constructor(key: string) {
    super(`S3 has no multipart upload for ${key}`);
    this.name = "NoSuchMultipartError";
  }
}

export function directUploadStore(config: S3ApiConfig) {
  const credentials = {
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: "s3",
    region: config.region,
  };
  const client = new AwsClient(credentials);
  // A streamed body can be read once: aws4fetch's retries of a 5xx would send a spent stream.
  const onceClient = new AwsClient({ ...credentials, retries: 0 });
  const bucketUrl = `${config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(config.bucket)}`;
  const objectUrl = (key: string, query: Record<string, string>) => {
    const url = new URL(`${bucketUrl}/${key.split("/").map(encodeURIComponent).join("/")}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  };
  const send = (url: string, init: RequestInit, via = client) =>
    via.fetch(url, {
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

    /**
     * A URL that lets its holder PUT one part of exactly `length` bytes, and nothing else, until
     * `expiresSeconds`. Content-Length is signed (aws4fetch leaves it out unless `allHeaders`):
     * storage refuses a body of any other length, where a URL that signs only the host would take
     * up to S3's 5 GiB a part. Browsers and tools send the body's own length, so no header is asked
     * of the client.
     */
    async partUrl(
      key: string,
      multipartId: string,
      partNumber: number,
      expiresSeconds: number,
      length: number,
    ) {
      const url = objectUrl(key, {
        partNumber: String(partNumber),
        uploadId: multipartId,
        "X-Amz-Expires": String(expiresSeconds),
      });
      const signer = new AwsV4Signer({
        ...credentials,
        // The signing key is derived once a day, not once a part (a 2 GiB file has 256).
        cache: client.cache,
        url,
        method: "PUT",
        headers: { "content-length": String(length) },
        signQuery: true,
        allHeaders: true,
      });
      return (await signer.sign()).url.toString();
    },

    /**
     * UploadPart, streamed: `body` goes to storage as it arrives, never held whole. A
     * FixedLengthStream sends it with its Content-Length (S3 refuses chunked parts) and fails the
     * request if the stream holds more or fewer than `length` bytes. Answers the part's ETag.
     */
    async uploadPart(
      key: string,
      multipartId: string,
      partNumber: number,
      body: ReadableStream<Uint8Array>,
      length: number,
    ): Promise<string> {
      const url = objectUrl(key, { partNumber: String(partNumber), uploadId: multipartId });
      let response: Response;
      try {
        response = await send(
          url,
          { method: "PUT", body: body.pipeThrough(new FixedLengthStream(length)) },
          onceClient,
        );
      } catch (error) {
        // The connection failed or broke, or the sender's body ended early: send the part again.
        throw new StorageUnavailableError(`S3 UploadPart ${key} #${partNumber} failed: ${error}`, {
          cause: error,
        });
      }
      const etag = response.headers.get("etag");
      if (response.ok && etag) {
        await response.body?.cancel();
        return etag;
      }
      const xml = await response.text().catch(() => "");
      if (response.status === 404 && xmlText(xml, "Code") === "NoSuchUpload") {
        throw new NoSuchMultipartError(key);
      }
      const message = `S3 UploadPart ${key} #${partNumber} failed with ${response.status}: ${xml.slice(0, 300)}`;
      // Busy or failing storage: the part may be sent again (a part sent twice replaces itself).
      if (response.status >= 500 || response.status === 429) {
        throw new StorageUnavailableError(message);
      }
      throw new StorageError(message);
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
