import type { HttpDatabase } from "@edge-music/db";
import {
  playArtistListenersDaily,
  playInbox,
  playListenersDaily,
  playRecent,
} from "@edge-music/db";
import { inArray, lt } from "drizzle-orm";
import type { Logger } from "../../logger.ts";
import { describeError } from "../../logger.ts";
import { countPlays, countStatements } from "./count.ts";
import { PlayMessage } from "./message.ts";

/** The longest a failed batch waits before its next delivery (the queue's retry delay). */
const MAX_RETRY_DELAY_SECONDS = 600;

/** 5 s, 10 s, 20 s, … up to 10 minutes: a database that is down is not hammered. */
export const retryDelaySeconds = (attempts: number) =>
  Math.min(MAX_RETRY_DELAY_SECONDS, 5 * 2 ** Math.max(0, attempts - 1));

/**
 * The plays queue's consumer: a batch of reports counted in one round trip, then acknowledged.
 * A message that is no play report is acknowledged and logged (it would never parse). When the
 * database fails, every play of the batch is retried with a growing delay (`retryDelaySeconds`),
 * up to wrangler.toml's `max_retries`: plays count late, never twice (the 10-minute rule makes a
 * batch that did commit count nothing when delivered again).
 */
export async function consumePlays(
  batch: MessageBatch<unknown>,
  db: HttpDatabase,
  log: Logger,
): Promise<void> {
  const plays: Array<{ message: Message<unknown>; play: PlayMessage }> = [];
  for (const message of batch.messages) {
    const parsed = PlayMessage.safeParse(message.body);
    if (parsed.success) plays.push({ message, play: parsed.data });
    else {
      log.warn("a message of the plays queue is no play report; dropped", { id: message.id });
      message.ack();
    }
  }
  if (plays.length === 0) return;
  try {
    const counted = await countPlays(
      db,
      plays.map((p) => p.play),
    );
    for (const { message } of plays) message.ack();
    log.debug("plays counted", { reported: plays.length, counted });
  } catch (error) {
    log.warn("counting plays failed; the batch will be delivered again", {
      plays: plays.length,
      ...describeError(error),
    });
    for (const { message } of plays) {
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

/** How many inbox entries one cron run counts (one read and one batch). */
const INBOX_TAKE = 1000;

/**
 * The per-minute cron's part of plays: the inbox (reports the queue refused) counted through the
 * consumer's statement and emptied of them in the same transaction; then what the 10-minute rule
 * and the day's listener keys no longer need is swept. Answers how many reports were taken.
 */
export async function drainPlayInbox(db: HttpDatabase, now: Date): Promise<number> {
  const taken = await db
    .select({ id: playInbox.id, play: playInbox.play })
    .from(playInbox)
    .orderBy(playInbox.id)
    .limit(INBOX_TAKE);
  const plays: PlayMessage[] = [];
  for (const row of taken) {
    const parsed = PlayMessage.safeParse(row.play);
    if (parsed.success) plays.push(parsed.data);
  }
  const ids = taken.map((row) => row.id);
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  // One transaction: the counts and the removal from the inbox commit together or not at all
  // (a second cron run that read the same rows counts nothing: the 10-minute rule).
  await db.batch([
    db.delete(playRecent).where(lt(playRecent.countedAt, dayAgo)),
    ...countStatements(db, plays),
    ...(ids.length > 0 ? [db.delete(playInbox).where(inArray(playInbox.id, ids))] : []),
    db.delete(playListenersDaily).where(lt(playListenersDaily.day, twoDaysAgo)),
    db.delete(playArtistListenersDaily).where(lt(playArtistListenersDaily.day, twoDaysAgo)),
  ]);
  return taken.length;
}
