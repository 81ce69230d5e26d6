import { AwsClient } from "aws4fetch";
import { putStreamed } from "./multipart.ts";
import {
  type ByteRange,
  type ListPage,
  type ObjectInfo,
  type ObjectStorage,
  type PutBody,
  type PutOptions,
  StorageError,
  StorageUnavailableError,
  type StoredObject,
  UnsatisfiableRangeError,
} from "./port.ts";

/** Tries of a request without a body when the connection fails (not when S3 answers). */
const NETWORK_ATTEMPTS = 3;

export interface S3StorageConfig {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** S3 over HTTP with SigV4 (path-style addressing, which every S3-compatible store accepts). */
export function s3Storage(config: S3StorageConfig): ObjectStorage {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: "s3",
    region: config.region,
  });
  const bucketUrl = `${config.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(config.bucket)}`;
  const objectUrl = (key: string) =>
    `${bucketUrl}/${key.split("/").map(encodeURIComponent).join("/")}`;

  const send = async (url: string, init: RequestInit & { headers?: Record<string, string> }) => {
    const request = () =>
      client.fetch(url, {
        ...init,
        // Streams are not hashed: the payload is signed as UNSIGNED-PAYLOAD, as over TLS in S3.
        headers: { "x-amz-content-sha256": "UNSIGNED-PAYLOAD", ...init.headers },
      });
    // aws4fetch retries 5xx answers itself; a connection that fails or breaks throws instead.
    // Requests are sent again, bodiless ones and those with bytes (a multipart upload's parts);
    // a stream (often the client's upload) can be read only once, so its failure stands.
    if (init.body instanceof ReadableStream) return request();
    for (let attempt = 1; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        if (attempt >= NETWORK_ATTEMPTS) {
          throw new StorageUnavailableError(`S3 ${init.method} failed: ${String(error)}`, {
            cause: error,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
      }
    }
  };
  const fail = async (operation: string, key: string, response: Response): Promise<never> => {
    const text = await response.text().catch(() => "");
    throw new StorageError(
      `S3 ${operation} ${key} failed with ${response.status}: ${text.slice(0, 300)}`,
    );
  };

  const storage: ObjectStorage = {
    driver: "s3",
    async head(key) {
      const response = await send(objectUrl(key), { method: "HEAD" });
      if (response.status === 404) return null;
      if (!response.ok) return fail("HEAD", key, response);
      return info(key, response);
    },
    async get(key, options = {}): Promise<StoredObject | null> {
      const { range } = options;
      const headers: Record<string, string> = range ? { range: rangeHeader(range) } : {};
      const response = await send(objectUrl(key), { method: "GET", headers });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (response.status === 416) {
        // S3 names the size in its error document (<ActualObjectSize>), not in a Content-Range.
        const text = await response.text().catch(() => "");
        const size = /<ActualObjectSize>(\d+)<\/ActualObjectSize>/.exec(text)?.[1];
        throw new UnsatisfiableRangeError(key, size === undefined ? undefined : Number(size));
      }
      if (!response.ok || !response.body) return fail("GET", key, response);
      const stored: StoredObject = { ...info(key, response), body: response.body };
      // 206: Content-Range "bytes a-b/size" names the whole object's size. Without one (200) the
      // store sent the whole object.
      const contentRange = /bytes (\d+)-(\d+)\/(\d+)/.exec(
        response.headers.get("content-range") ?? "",
      );
      if (range && contentRange) {
        const [, start, end, total] = contentRange.map(Number) as [number, number, number, number];
        if (
          "suffix" in range &&
          (end !== total - 1 || end - start + 1 !== Math.min(range.suffix, total))
        ) {
          // A store that does not know suffix ranges (s3rver reads `bytes=-n` as `bytes=0-n`):
          // the same bytes again, by their offset, now that the size is known.
          await response.body.cancel();
          return await storage.get(key, {
            range: { offset: total - Math.min(range.suffix, total) },
          });
        }
        stored.size = total;
        stored.range = { offset: start, length: end - start + 1 };
      }
      return stored;
    },
    async put(key: string, body: PutBody, options: PutOptions = {}) {
      const headers: Record<string, string> = {};
      if (options.contentType) headers["content-type"] = options.contentType;
      if (options.cacheControl) headers["cache-control"] = options.cacheControl;
      let payload = body as BodyInit;
      if (body instanceof ReadableStream) {
        if (options.size === undefined)
          throw new StorageError(`put ${key}: a stream needs its size`);
        // S3 refuses chunked uploads without a length; a FixedLengthStream sends Content-Length.
        payload = body.pipeThrough(new FixedLengthStream(options.size));
      }
      const response = await send(objectUrl(key), { method: "PUT", body: payload, headers });
      if (!response.ok) return fail("PUT", key, response);
      await response.body?.cancel();
      const stored = await storage.head(key);
      if (!stored) throw new StorageError(`PUT ${key} succeeded but the object is not there`);
      return stored;
    },
    async putStream(key, body, options = {}) {
      const headers: Record<string, string> = {};
      if (options.contentType) headers["content-type"] = options.contentType;
      if (options.cacheControl) headers["cache-control"] = options.cacheControl;
      const url = objectUrl(key);
      return await putStreamed(
        {
          putSmall: (bytes) => storage.put(key, bytes, options),
          head: () => storage.head(key),
          async start() {
            const created = await send(`${url}?uploads`, { method: "POST", headers });
            if (!created.ok) return fail("CreateMultipartUpload", key, created);
            const uploadId = decodeXml(
              /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1] ?? "",
            );
            const withId = (extra = "") =>
              `${url}?uploadId=${encodeURIComponent(uploadId)}${extra}`;
            return {
              async uploadPart(partNumber, bytes) {
                const response = await send(withId(`&partNumber=${partNumber}`), {
                  method: "PUT",
                  body: bytes,
                });
                if (!response.ok) return fail("UploadPart", key, response);
                await response.body?.cancel();
                return { partNumber, etag: response.headers.get("etag") ?? "" };
              },
              async complete(parts) {
                const xml = `<CompleteMultipartUpload>${parts
                  .map(
                    (p) =>
                      `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${p.etag}</ETag></Part>`,
                  )
                  .join("")}</CompleteMultipartUpload>`;
                const response = await send(withId(), {
                  method: "POST",
                  body: xml,
                  headers: { "content-type": "application/xml" },
                });
                // S3 may answer 200 with an <Error> body when completing fails late.
                const text = await response.text();
                if (!response.ok || text.includes("<Error>")) {
                  throw new StorageError(
                    `S3 CompleteMultipartUpload ${key} failed: ${text.slice(0, 300)}`,
                  );
                }
              },
              async abort() {
                const response = await send(withId(), { method: "DELETE" });
                await response.body?.cancel();
              },
            };
          },
        },
        body,
        options,
      );
    },
    async delete(keys) {
      const list = Array.isArray(keys) ? keys : [keys];
      // Single deletes (DeleteObjects needs Content-MD5, which not every store agrees on), 8 at a time.
      for (let i = 0; i < list.length; i += 8) {
        await Promise.all(
          list.slice(i, i + 8).map(async (key) => {
            const response = await send(objectUrl(key), { method: "DELETE" });
            if (!response.ok && response.status !== 404) await fail("DELETE", key, response);
            await response.body?.cancel();
          }),
        );
      }
    },
    async list(prefix, options = {}): Promise<ListPage> {
      const query = new URLSearchParams({
        "list-type": "2",
        prefix,
        "max-keys": String(options.limit ?? 1000),
      });
      if (options.cursor) query.set("continuation-token", options.cursor);
      const response = await send(`${bucketUrl}?${query}`, { method: "GET" });
      if (!response.ok) return fail("LIST", prefix, response);
      const xml = await response.text();
      const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => decodeXml(m[1] ?? ""));
      const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
      const next = xml.match(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/)?.[1];
      return { keys, cursor: truncated && next ? decodeXml(next) : undefined };
    },
    async ping() {
      const response = await send(bucketUrl, { method: "HEAD" });
      await response.body?.cancel();
      if (!response.ok)
        throw new StorageError(`bucket ${config.bucket} answered ${response.status}`);
    },
  };
  return storage;
}

function info(key: string, response: Response): ObjectInfo {
  const modified = response.headers.get("last-modified");
  return {
    key,
    size: Number(response.headers.get("content-length") ?? 0),
    etag: response.headers.get("etag") ?? "",
    contentType: response.headers.get("content-type") ?? undefined,
    uploadedAt: modified ? new Date(modified) : undefined,
  };
}

/** The Range header of one ByteRange (RFC 9110: `bytes=a-b`, `bytes=a-`, `bytes=-n`). */
function rangeHeader(range: ByteRange): string {
  if ("suffix" in range) return `bytes=-${range.suffix}`;
  const end = range.length === undefined ? "" : String(range.offset + range.length - 1);
  return `bytes=${range.offset}-${end}`;
}

function decodeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}
