import { playInbox } from "@edge-music/db";
import { describeError } from "../../logger.ts";
import type { RequestDeps } from "../../request-deps.ts";
import type { PlayMessage } from "./message.ts";

/** What recording a play takes of a request (or of any handler with the same members). */
export type PlayDeps = Pick<RequestDeps, "db" | "env" | "log" | "waitUntil">;

/** A play as its producer knows it; `listener` from `userListener` or `networkListener`. */
export interface PlayReport {
  trackId: string;
  listener: string;
  /** `countryOf(request)`: what the edge saw, `XX` when it did not say. */
  country: string;
  at: Date;
}

/**
 * Records plays the listener has heard (30 s of a track, or the whole of a shorter one): each
 * goes to the plays queue AFTER the response (`waitUntil`), so the listener's request waits for
 * no database round trip and no queue. Whether a play counts (READY, hearable, the 10-minute
 * rule) is the consumer's decision, not the caller's. When the queue refuses the send, the plays
 * go to the play inbox table, which the per-minute cron counts; only when both fail is a play
 * lost, and that is logged as an error. For the web player's `POST /history` and `POST /plays`,
 * and Subsonic's `scrobble` (up to 50 at once).
 */
export function recordPlays(deps: PlayDeps, reports: PlayReport[]): void {
  if (reports.length === 0) return;
  const messages: PlayMessage[] = reports.map((report) => ({
    v: 1,
    trackId: report.trackId,
    listener: report.listener,
    country: report.country,
    at: report.at.toISOString(),
  }));
  deps.waitUntil(deliver(deps, messages));
}

/** One play: see `recordPlays`. */
export const recordPlay = (deps: PlayDeps, report: PlayReport): void => recordPlays(deps, [report]);

async function deliver(deps: PlayDeps, messages: PlayMessage[]): Promise<void> {
  try {
    const queue = deps.env.PLAYS;
    if (!queue) throw new Error("the PLAYS queue binding is missing");
    await queue.sendBatch(messages.map((body) => ({ body, contentType: "json" as const })));
    return;
  } catch (error) {
    deps.log.warn("the plays queue refused plays; they wait in the inbox", {
      plays: messages.length,
      ...describeError(error),
    });
  }
  try {
    await deps.db.insert(playInbox).values(messages.map((play) => ({ play })));
  } catch (error) {
    deps.log.error("plays lost: neither the queue nor the inbox took them", {
      plays: messages.length,
      ...describeError(error),
    });
  }
}
