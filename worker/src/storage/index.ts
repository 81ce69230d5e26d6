import type { Env } from "../env.ts";
import type { ObjectStorage } from "./port.ts";
import { r2Storage } from "./r2.ts";
import { s3Storage } from "./s3.ts";

export { MULTIPART_PART_BYTES } from "./multipart.ts";
export type {
  ByteRange,
  ObjectInfo,
  ObjectStorage,
  PutBody,
  PutOptions,
  StoredObject,
  StreamPutOptions,
} from "./port.ts";
export { ObjectTooLargeError, StorageError, UnsatisfiableRangeError } from "./port.ts";
export { r2Storage } from "./r2.ts";
export { s3Storage } from "./s3.ts";

export function createStorage(env: Env): ObjectStorage {
  if (env.STORAGE_DRIVER === "r2") return r2Storage(env.MEDIA);
  return s3Storage({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  });
}

/** Deletes every object under `prefix` (a track's files: `tracks/<id>/`), page by page. */
export async function deletePrefix(storage: ObjectStorage, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await storage.list(prefix, cursor ? { cursor } : {});
    if (page.keys.length > 0) await storage.delete(page.keys);
    cursor = page.cursor;
  } while (cursor);
}
