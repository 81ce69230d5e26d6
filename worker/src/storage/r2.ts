import { putStreamed } from "./multipart.ts";
import {
  type ByteRange,
  type ListPage,
  type ObjectInfo,
  type ObjectStorage,
  type PutBody,
  type PutOptions,
  type StoredObject,
  UnsatisfiableRangeError,
} from "./port.ts";

export function r2Storage(bucket: R2Bucket): ObjectStorage {
  return {
    driver: "r2",
    async head(key) {
      const object = await bucket.head(key);
      return object ? info(object) : null;
    },
    async get(key, options = {}) {
      const { range } = options;
      let object: R2ObjectBody | null;
      try {
        object = await bucket.get(key, range ? { range } : {});
      } catch (error) {
        // A range starting at or after the end: "get: The requested range is not satisfiable
        // (10039)". A missing object answers null before the range is looked at.
        if (range && error instanceof Error && error.message.includes("(10039)")) {
          throw new UnsatisfiableRangeError(key, undefined);
        }
        throw error;
      }
      if (!object) return null;
      const stored: StoredObject = { ...info(object), body: object.body };
      if (range) stored.range = bytesRead(range, object);
      return stored;
    },
    async put(key: string, body: PutBody, options: PutOptions = {}) {
      const value =
        body instanceof ReadableStream && options.size !== undefined
          ? body.pipeThrough(new FixedLengthStream(options.size))
          : body;
      const object = await bucket.put(key, value, {
        httpMetadata: {
          ...(options.contentType ? { contentType: options.contentType } : {}),
          ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
        },
      });
      return info(object);
    },
    async putStream(key, body, options = {}) {
      const httpMetadata = {
        ...(options.contentType ? { contentType: options.contentType } : {}),
        ...(options.cacheControl ? { cacheControl: options.cacheControl } : {}),
      };
      return await putStreamed(
        {
          putSmall: async (bytes) => info(await bucket.put(key, bytes, { httpMetadata })),
          head: async () => {
            const object = await bucket.head(key);
            return object ? info(object) : null;
          },
          async start() {
            const upload = await bucket.createMultipartUpload(key, { httpMetadata });
            return {
              async uploadPart(partNumber, bytes) {
                const part = await upload.uploadPart(partNumber, bytes);
                return { partNumber: part.partNumber, etag: part.etag };
              },
              async complete(parts) {
                await upload.complete(parts);
              },
              abort: () => upload.abort(),
            };
          },
        },
        body,
        options,
      );
    },
    async delete(keys) {
      const list = Array.isArray(keys) ? keys : [keys];
      // R2 deletes at most 1000 keys per call.
      for (let i = 0; i < list.length; i += 1000) await bucket.delete(list.slice(i, i + 1000));
    },
    async list(prefix, options = {}): Promise<ListPage> {
      const page = await bucket.list({
        prefix,
        limit: options.limit ?? 1000,
        ...(options.cursor ? { cursor: options.cursor } : {}),
      });
      return {
        keys: page.objects.map((o) => o.key),
        cursor: page.truncated ? page.cursor : undefined,
      };
    },
    async ping() {
      await bucket.head("health/probe");
    },
  };
}

function info(object: R2Object): ObjectInfo {
  return {
    key: object.key,
    size: object.size,
    etag: object.httpEtag,
    contentType: object.httpMetadata?.contentType,
    uploadedAt: object.uploaded,
  };
}

/** The bytes R2 read: it reports them resolved against the size; else resolved here alike. */
function bytesRead(asked: ByteRange, object: R2ObjectBody): { offset: number; length: number } {
  const reported = object.range as { offset?: number; length?: number } | undefined;
  if (reported?.offset !== undefined && reported.length !== undefined) {
    return { offset: reported.offset, length: reported.length };
  }
  const { size } = object;
  if ("suffix" in asked) {
    const length = Math.min(asked.suffix, size);
    return { offset: size - length, length };
  }
  const rest = size - asked.offset;
  return { offset: asked.offset, length: Math.min(asked.length ?? rest, rest) };
}
