import { bigint, jsonb, pgTable } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

// A roll-up of plays (ADR 0028), written only by the plays queue's consumer
// (worker/src/features/plays/), never on a listener's request. Days and hours are UTC.

/**
 * Play reports the queue refused (its send failed), kept until the per-minute cron counts them
 * through the consumer's own statement.
 */
export const playInbox = pgTable("play_inbox", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  play: jsonb("play").notNull(),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
});
