import type { Transaction } from "@edge-music/db";
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
 * and background):
 * 1. `write` runs in a transaction: it locks the row (`SELECT … FOR UPDATE`) and checks its
 *    owner, then calls `store()`, which stores the new images under new names (a stranger's
 *    upload never reaches storage, and the row never points at a half-written object); it writes
 *    the returned paths and answers the paths the row had.
 * 2. After the commit, the replaced objects are deleted; if the update failed, the new ones are.
 *    Either deletion is logged, not answered: the row is already right, and an object that no
 *    row points at is unreachable.
 */
export async function replaceImages<F extends string, T>(
  ctx: Pick<RequestDeps, "interactiveDb" | "storage" | "log">,
  images: NewImages<F>,
  write: (tx: Transaction, store: () => Promise<{ [K in F]?: string }>) => Promise<Replaced<F, T>>,
): Promise<T> {
  const stored: { [K in F]?: string } = {};
  const store = async () => {
    const entries = Object.entries(images) as Array<[F, { folder: ImageFolder; image: Image }]>;
    await Promise.all(
      entries.map(async ([field, { folder, image }]) => {
        stored[field] = await storeImage(ctx.storage, folder, image);
      }),
    );
    return stored;
  };
  let outcome: Replaced<F, T>;
  try {
    outcome = await ctx.interactiveDb.transaction((tx) => write(tx, store));
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
