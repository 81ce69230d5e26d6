import { putStreamed } from "./multipart.ts";
import type {
  ListPage,
  ObjectInfo,
  ObjectStorage,
  PutBody,
  PutOptions,
  StoredObject,
} from "./port.ts";

export function r2Storage(bucket: R2Bucket): ObjectStorage {
  return {
    driver: "r2",
    async head(key) {
      const object = await bucket.head(key);
      return object ? info(object) : null;
    },
    async get(key, options = {}) {
      const object = await bucket.get(key, options.range ? { range: options.range } : {});
      if (!object) return null;
      const stored: StoredObject = { ...info(object), body: object.body };
      if (options.range) {
        const offset = options.range.offset;
        stored.range = { offset, length: options.range.length ?? object.size - offset };
      }
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
