import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";

/** What the history services need of a request: the database and the signed-in user. */
export interface HistoryContext {
  db: Database;
  userId: string;
}

/** Only for routes behind `requireUser`, which sets the principal. */
export function historyContext(c: Context<AppEnv>): HistoryContext {
  return { db: c.get("services").db(), userId: c.get("principal").id };
}
