import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * Fixed-window counters for abuse limits (failed sign-ins, 2FA codes, reset requests), keyed by
 * what is limited (`login:user:acct:<email>`, `login:ip:<address>`, ...). Kept in Postgres, which
 * every such request already talks to, so that auth does not depend on Redis (the queue's store).
 * One upsert per hit is atomic; windows over for a day are swept now and then by the writers
 * (worker/src/auth/rate-limit.ts).
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamptz("window_started_at").notNull().defaultNow(),
  hits: integer("hits").notNull().default(0),
});

export type RateLimit = typeof rateLimits.$inferSelect;
