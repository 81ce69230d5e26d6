import type { Database } from "@edge-music/db";
import type { Context } from "hono";
import type { AppEnv } from "../../../app-env.ts";

/** What the follow and like services need of a request: the database and the signed-in user. */
export interface SocialContext {
  db: Database;
  userId: string;
}

/** Only for routes behind `requireUser`, which sets the principal. */
export function socialContext(c: Context<AppEnv>): SocialContext {
  return { db: c.get("services").db(), userId: c.get("principal").id };
}
