import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";
import type { Logger } from "../../../logger.ts";
import type { ObjectStorage } from "../../../storage/index.ts";

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
