import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors/app-error.ts";
import type { ObjectStorage } from "../storage/index.ts";

/** Images (avatars, backgrounds, covers): at most 5 MB each. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Multipart bodies with one cover: the 5 MB image plus the text fields and framing. */
export const COVER_BODY_LIMIT = IMAGE_MAX_BYTES + 1024 * 1024;

export type ImageFolder = "avatars" | "backgrounds" | "covers";

export interface Image {
  bytes: Uint8Array;
  ext: "png" | "jpg" | "webp";
  contentType: "image/png" | "image/jpeg" | "image/webp";
}

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  prefix.every((b, i) => bytes[at + i] === b);

/** PNG, JPEG or WebP, recognised by their bytes: a name or a declared type proves nothing. */
export function sniffImage(bytes: Uint8Array): Omit<Image, "bytes"> | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { ext: "png", contentType: "image/png" };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ext: "jpg", contentType: "image/jpeg" };
  // RIFF....WEBP
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) {
    return { ext: "webp", contentType: "image/webp" };
  }
  return null;
}

/** The image in a multipart field: 400 when it is not a file, 413 above 5 MB, 415 when not an image. */
export async function readImage(value: unknown, field: string): Promise<Image> {
  if (!(value instanceof File)) {
    throw new ValidationError([
      { path: `form.${field}`, message: "must be a file", code: "not_a_file" },
    ]);
  }
  if (value.size > IMAGE_MAX_BYTES) throw new PayloadTooLargeError(IMAGE_MAX_BYTES);
  if (value.size === 0) {
    throw new ValidationError([{ path: `form.${field}`, message: "is empty", code: "empty_file" }]);
  }
  const bytes = new Uint8Array(await value.arrayBuffer());
  const kind = sniffImage(bytes);
  if (!kind) {
    throw new UnsupportedMediaTypeError(`The ${field} must be a PNG, JPEG or WebP image.`);
  }
  return { bytes, ...kind };
}

/**
 * Stores an image under a new name, so its URL can be cached forever: a later upload gets
 * another name rather than changing what this one serves. Returns the media path.
 */
export async function storeImage(storage: ObjectStorage, folder: ImageFolder, image: Image) {
  const name = `${crypto.randomUUID()}.${image.ext}`;
  await storage.put(`static/${folder}/${name}`, image.bytes, {
    contentType: image.contentType,
    cacheControl: "public, max-age=31536000, immutable",
  });
  return `/static/${folder}/${name}`;
}

/** The storage key behind a media path (/static/... → static/...), or null for anything else. */
export function mediaKey(path: string | null | undefined): string | null {
  if (!path) return null;
  return /^\/static\/(avatars|backgrounds|covers)\/[0-9a-f-]{36}\.(png|jpg|webp)$/.test(path)
    ? path.slice(1)
    : null;
}

/** Deletes the objects behind media paths that were replaced or whose owner is gone. */
export async function deleteMedia(storage: ObjectStorage, paths: Array<string | null | undefined>) {
  const keys = paths.map(mediaKey).filter((key): key is string => key !== null);
  if (keys.length > 0) await storage.delete(keys);
}

/**
 * An owner's update as the handler got it: its text fields, plus the named image fields of a
 * multipart body read with `readImage`. An update that changes nothing is a 400 (`empty_update`).
 */
export async function readUpdate<T extends Record<string, unknown>, I extends string>(
  fields: T,
  files: object | undefined,
  images: readonly I[],
): Promise<T & { [K in I]?: Image | undefined }> {
  const read: { [K in I]?: Image } = {};
  for (const name of images) {
    const file = (files as Partial<Record<I, unknown>> | undefined)?.[name];
    if (file !== undefined) read[name] = await readImage(file, name);
  }
  const update = { ...fields, ...read };
  if (Object.values(update).every((value) => value === undefined)) {
    throw new ValidationError([
      {
        path: "body",
        message: `send at least one of ${[...Object.keys(fields), ...images].join(", ")}`,
        code: "empty_update",
      },
    ]);
  }
  return update;
}
