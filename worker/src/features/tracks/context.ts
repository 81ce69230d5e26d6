import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { authenticate, type Principal } from "../../auth/guard.ts";
import { UnauthorizedError } from "../../errors/app-error.ts";
import type { Logger } from "../../logger.ts";
import type { ObjectStorage } from "../../storage/index.ts";

/** What the catalogue services (tracks, albums) need of a request; never Hono's Context. */
export interface CatalogueContext {
  db: Database;
  storage: ObjectStorage;
  log: Logger;
}

export function catalogueContext(c: Context<AppEnv>): CatalogueContext {
  const services = c.get("services");
  return { db: services.db(), storage: services.storage, log: c.get("log") };
}

/**
 * The caller on a public route, or null. Missing, expired or invalid credentials make the caller
 * anonymous rather than a 401: a stale cookie must never break a page anyone may read.
 */
export async function optionalPrincipal(c: Context<AppEnv>): Promise<Principal | null> {
  try {
    return await authenticate(c);
  } catch (error) {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  }
}
