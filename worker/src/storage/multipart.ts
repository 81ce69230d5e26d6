import { type ObjectInfo, ObjectTooLargeError, type StreamPutOptions } from "./port.ts";

/** R2 and S3 want parts of ≥ 5 MiB, all equal but the last; 8 MiB keeps a Worker's memory low. */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;

/** One multipart upload as each adapter speaks it. */
export interface MultipartUpload {
  uploadPart(
    partNumber: number,
    bytes: Uint8Array<ArrayBuffer>,
  ): Promise<{ partNumber: number; etag: string }>;
  complete(parts: Array<{ partNumber: number; etag: string }>): Promise<void>;
  abort(): Promise<void>;
}

export interface MultipartTarget {
  /** A single PUT, for streams that fit in one part. */
  putSmall(bytes: Uint8Array<ArrayBuffer>): Promise<ObjectInfo>;
  start(): Promise<MultipartUpload>;
  head(): Promise<ObjectInfo | null>;
}

/** Cuts a stream into parts of exactly `size` bytes (the last may be shorter). */
export async function* partsOf(stream: ReadableStream<Uint8Array>, size: number) {
  const reader = stream.getReader();
  let part = new Uint8Array(size);
  let filled = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let offset = 0;
      while (offset < value.length) {
        const take = Math.min(size - filled, value.length - offset);
        part.set(value.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === size) {
          yield part;
          part = new Uint8Array(size);
          filled = 0;
        }
      }
    }
    if (filled > 0) yield part.subarray(0, filled);
  } finally {
    reader.releaseLock();
  }
}

/**
 * The adapter-independent half of `putStream`: buffers one part at a time, starts a multipart
 * upload only when a second part exists, and aborts it on any failure (too large included).
 */
export async function putStreamed(
  target: MultipartTarget,
  body: ReadableStream<Uint8Array>,
  options: StreamPutOptions,
  partBytes = MULTIPART_PART_BYTES,
): Promise<ObjectInfo> {
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let upload: MultipartUpload | undefined;
  let first: Uint8Array<ArrayBuffer> | undefined;
  let total = 0;
  const parts: Array<{ partNumber: number; etag: string }> = [];
  try {
    for await (const part of partsOf(body, partBytes)) {
      total += part.length;
      if (total > max) throw new ObjectTooLargeError(max);
      if (!first) {
        first = part;
        continue;
      }
      if (!upload) {
        upload = await target.start();
        parts.push(await upload.uploadPart(1, first));
      }
      parts.push(await upload.uploadPart(parts.length + 1, part));
    }
    if (!upload) return await target.putSmall(first ?? new Uint8Array(0));
    await upload.complete(parts);
  } catch (error) {
    await body.cancel().catch(() => {});
    await upload?.abort().catch(() => {});
    throw error;
  }
  const stored = await target.head();
  if (!stored) throw new Error("the multipart upload completed but the object is not there");
  return stored;
}
