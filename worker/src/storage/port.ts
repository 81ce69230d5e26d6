/**
 * The Worker's object storage, a small port with two adapters: the R2 binding (production,
 * Workers tests) and S3 over HTTP (the local stack, self-hosting on any S3-compatible store).
 */
export interface ObjectInfo {
  key: string;
  size: number;
  etag: string;
  contentType: string | undefined;
  uploadedAt: Date | undefined;
}

export interface StoredObject extends ObjectInfo {
  body: ReadableStream<Uint8Array>;
  /**
   * Present when a range was read: the bytes the body holds, as the store reports them (`size`
   * stays the whole). Absent when the store sent the whole object instead.
   */
  range?: { offset: number; length: number };
}

/**
 * Bytes `offset` … `offset + length - 1` (`length` omitted: to the end; a length past the end is
 * cut there), or the last `suffix` bytes (all of them when the object is shorter). The store
 * resolves it against the object's size, so a reader needs no HEAD first.
 */
export type ByteRange = { offset: number; length?: number } | { suffix: number };

export type PutBody = ReadableStream<Uint8Array> | ArrayBuffer | Uint8Array | string;

export interface PutOptions {
  contentType?: string;
  /** Required when `body` is a stream: both R2 and S3 need the length up front. */
  size?: number;
  cacheControl?: string;
}

export interface StreamPutOptions {
  contentType?: string;
  cacheControl?: string;
  /** Refuse (and discard) a stream longer than this: `ObjectTooLargeError`. */
  maxBytes?: number;
}

export interface ListPage {
  keys: string[];
  cursor: string | undefined;
}

export interface ObjectStorage {
  readonly driver: "r2" | "s3";
  head(key: string): Promise<ObjectInfo | null>;
  get(key: string, options?: { range?: ByteRange }): Promise<StoredObject | null>;
  put(key: string, body: PutBody, options?: PutOptions): Promise<ObjectInfo>;
  /**
   * Stores a stream of unknown length without holding it in memory: a multipart upload of
   * equal parts (MULTIPART_PART_BYTES; only the last is shorter), aborted on any error.
   */
  putStream(
    key: string,
    body: ReadableStream<Uint8Array>,
    options?: StreamPutOptions,
  ): Promise<ObjectInfo>;
  delete(keys: string | string[]): Promise<void>;
  list(prefix: string, options?: { cursor?: string; limit?: number }): Promise<ListPage>;
  /** Resolves when the bucket answers (readiness probe). */
  ping(): Promise<void>;
}

export class StorageError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "StorageError";
  }
}

/** The storage could not be reached (the connection failed or broke): worth trying again. */
export class StorageUnavailableError extends StorageError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "StorageUnavailableError";
  }
}

/**
 * The range starts at or after the end of the object (R2 throws its error 10039, S3 answers 416).
 * `size` is the object's, when the store said it.
 */
export class UnsatisfiableRangeError extends StorageError {
  constructor(
    key: string,
    readonly size: number | undefined,
  ) {
    super(`The requested range of ${key} is not satisfiable.`);
    this.name = "UnsatisfiableRangeError";
  }
}

export class ObjectTooLargeError extends StorageError {
  constructor(readonly maxBytes: number) {
    super(`The object exceeds ${maxBytes} bytes.`);
    this.name = "ObjectTooLargeError";
  }
}
