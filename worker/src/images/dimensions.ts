import { imageSize } from "image-size";
import type { ObjectStorage } from "../storage/port.ts";
import { mediaKey } from "./images.ts";

/** Enough of a stored image to find its size: PNG and WebP say it at once, JPEG by its frame. */
const HEADER_BYTES = 64 * 1024;

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * The size a stored image (a `/static/…` media path) is shown at, read from its first bytes by
 * `image-size` (EXIF orientation applied: a portrait photo stored sideways is tall), or null for
 * anything else, a missing object, or a header that does not say (a JPEG whose frame starts
 * past the first 64 KiB). One storage read, no database.
 */
export async function storedImageDimensions(
  storage: ObjectStorage,
  path: string | null,
): Promise<Dimensions | null> {
  const key = mediaKey(path);
  if (!key) return null;
  const object = await storage.get(key, { range: { offset: 0, length: HEADER_BYTES } });
  if (!object) return null;
  const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (!width || !height) return null;
    // EXIF orientations 5 to 8 turn the picture by a quarter.
    return orientation !== undefined && orientation >= 5
      ? { width: height, height: width }
      : { width, height };
  } catch {
    return null;
  }
}
