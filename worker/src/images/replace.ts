import { describeError } from "../logger.ts";
import type { RequestDeps } from "../request-deps.ts";
import { deleteMedia, type Image, type ImageFolder, storeImage } from "./images.ts";

/** The new images of one update, by the column they go to (`cover`, `avatar`, …). */
export type NewImages<F extends string> = { [K in F]?: { folder: ImageFolder; image: Image } };

/** What a row update returns: the paths its image columns held before, and its own result. */
export interface Replaced<F extends string, T> {
  previous: { [K in F]?: string | null };
  result: T;
}

/**
 * The one way to replace a row's images (track, album and playlist covers, an artist's avatar
 * and background), without holding a database transaction open across storage I/O:
 * 1. The caller has checked the owner (a stranger's upload never reaches storage).
 * 2. The new images are stored under new names (the row never points at a half-written object).
 * 3. `write` sends one batch that locks the row, reads the paths it holds (the ones replaced),
 *    and writes the new paths with the other fields only if the caller still owns it.
 * 4. After the commit the replaced objects are deleted; if the batch failed (the row was deleted
 *    meanwhile, a dead session, a taken name), the new ones are. Either deletion is logged, not
 *    answered: the row is already right, and an object that no row points at is unreachable.
 * Without new images it is just `write({})`: one round trip.
 */
export async function replaceImages<F extends string, T>(
  ctx: Pick<RequestDeps, "storage" | "log">,
  images: NewImages<F>,
  write: (stored: { [K in F]?: string }) => Promise<Replaced<F, T>>,
): Promise<T> {
  const stored: { [K in F]?: string } = {};
  const entries = Object.entries(images) as Array<[F, { folder: ImageFolder; image: Image }]>;
  let outcome: Replaced<F, T>;
  try {
    await Promise.all(
      entries.map(async ([field, { folder, image }]) => {
        stored[field] = await storeImage(ctx.storage, folder, image);
      }),
    );
    outcome = await write(stored);
  } catch (error) {
    await discardImages(ctx, Object.values<string | undefined>(stored));
    throw error;
  }
  const fields = Object.keys(stored) as F[];
  await discardImages(
    ctx,
    fields.map((field) => outcome.previous[field]),
  );
  return outcome.result;
}

/**
 * Deletes images nobody points at any more (replaced, or their row deleted). A failure is logged,
 * not answered: the row change it follows has already happened.
 */
export async function discardImages(
  ctx: Pick<RequestDeps, "storage" | "log">,
  paths: Array<string | null | undefined>,
  fields: Record<string, unknown> = {},
): Promise<void> {
  if (paths.every((path) => !path)) return;
  try {
    await deleteMedia(ctx.storage, paths);
  } catch (error) {
    ctx.log.error("deleting unreferenced images failed", {
      ...fields,
      paths,
      ...describeError(error),
    });
  }
}
