import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";

/** What search needs of a request: only the database (search is public). */
export interface SearchContext {
  db: Database;
}

export function searchContext(c: Context<AppEnv>): SearchContext {
  return { db: c.get("services").db() };
}
