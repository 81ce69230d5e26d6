import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";

export interface StorageConfig {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Idle time after which a request is abandoned (and retried by the SDK); default 30 s. */
  socketTimeoutMs?: number;
}

export interface UploadItem {
  key: string;
  path: string;
  size: number;
  contentType: string;
  cacheControl: string;
}

/** The source object is gone (deleted, or never written); retried, as storage may lag. */
export class SourceMissingError extends Error {
  override name = "SourceMissingError";
  constructor() {
    super("the uploaded source was not found in storage");
  }
}

export interface Storage {
  client: S3Client;
  bucket: string;
  download(key: string, path: string, signal?: AbortSignal): Promise<void>;
  upload(item: UploadItem, signal?: AbortSignal): Promise<void>;
  delete(key: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
}

export function createStorage(config: StorageConfig): Storage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
          },
        }
      : {}),
    forcePathStyle: true,
    requestHandler: {
      connectionTimeout: 5_000,
      socketTimeout: config.socketTimeoutMs ?? 30_000,
    },
    // With the default (WHEN_SUPPORTED) a streamed PutObject is sent with aws-chunked framing,
    // which s3rver stores inside the body; R2 and S3 need no checksum either.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const { bucket } = config;
  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };
  return {
    client,
    bucket,
    async download(key, path, signal) {
      let body: unknown;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), {
          abortSignal: signal,
        });
        body = object.Body;
      } catch (error) {
        if (error instanceof NoSuchKey) throw new SourceMissingError();
        throw error;
      }
      if (!(body instanceof Readable)) throw new Error("storage returned no body stream");
      await pipeline(body, createWriteStream(path), { signal });
    },
    async upload(item, signal) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: item.key,
          Body: createReadStream(item.path),
          ContentLength: item.size,
          ContentType: item.contentType,
          CacheControl: item.cacheControl,
        }),
        { abortSignal: signal },
      );
    },
    delete: remove,
    // One by one (bounded): DeleteObjects needs a Content-MD5 some S3-compatible stores insist on.
    deleteMany: (keys) => eachLimit(keys, 8, remove),
  };
}

/** Runs `task` over `items`, at most `limit` at a time; the first failure stops new starts. */
export async function eachLimit<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
