import {
  deleteMedia,
  IMAGE_MAX_BYTES,
  type Image,
  storeImage,
} from "../../../file-input/images.ts";
import { describeError } from "../../../logger.ts";
import type { CatalogueContext } from "./context.ts";

/**
 * Deletes objects nobody points at any more. A failure is logged, not answered: the row change
 * it follows has already happened, and an unreferenced object is unreachable anyway.
 */
export async function discardMedia(
  ctx: Pick<CatalogueContext, "storage" | "log">,
  paths: Array<string | null | undefined>,
  fields: Record<string, unknown> = {},
): Promise<void> {
  try {
    await deleteMedia(ctx.storage, paths);
  } catch (error) {
    ctx.log.error("deleting unreferenced media failed", {
      ...fields,
      paths,
      ...describeError(error),
    });
  }
}

/**
 * An update that may replace a cover (tracks, albums). `write` runs the row update in its
 * transaction and calls `storeCover` once its owner checks have passed, so a stranger's upload
 * never reaches storage; it returns the cover the row had before. The new image has a new name,
 * so the row never points at a half-written object; the replaced one is deleted only after the
 * commit, and the new one is deleted again when the update fails.
 */
export async function updateWithCover<T>(
  ctx: CatalogueContext,
  image: Image | undefined,
  write: (
    storeCover: () => Promise<string | undefined>,
  ) => Promise<{ replaced: string | null; result: T }>,
): Promise<T> {
  let stored: string | undefined;
  const storeCover = async () => {
    if (image) stored = await storeImage(ctx.storage, "covers", image);
    return stored;
  };
  let outcome: { replaced: string | null; result: T };
  try {
    outcome = await write(storeCover);
  } catch (error) {
    if (stored) await discardMedia(ctx, [stored]);
    throw error;
  }
  if (stored) await discardMedia(ctx, [outcome.replaced]);
  return outcome.result;
}

/** Multipart bodies with one cover: the 5 MB image plus the text fields and framing. */
export const COVER_BODY_LIMIT = IMAGE_MAX_BYTES + 1024 * 1024;
