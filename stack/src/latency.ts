// The distance to the production database, made felt locally: the Neon bridge delays every
// exchange between a client and Postgres by a configured round-trip time (DEV_DB_RTT_MS).
import { setTimeout as wait } from "node:timers/promises";

/**
 * Round trips a new `wss://` connection to Neon costs before its first Postgres byte can be sent:
 * the TCP handshake (1), the TLS 1.3 handshake (1) and the HTTP upgrade request/response (1).
 */
export const WSS_HANDSHAKE_ROUND_TRIPS = 3;

/** The round-trip time from DEV_DB_RTT_MS (0, no delay, when unset or empty). */
export function dbRttFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 0;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) {
    throw new Error(
      `DEV_DB_RTT_MS must be a number of milliseconds ≥ 0, not ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/**
 * Waits at least `ms` milliseconds. Node may fire a timer up to a millisecond early (its clock is
 * cached in whole milliseconds), and a measured delay must never come out shorter than asked.
 */
export async function sleepAtLeast(ms: number): Promise<void> {
  if (ms <= 0) return;
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) await wait(Math.ceil(left));
}

/**
 * One direction of a link with a fixed one-way delay: each action runs `delayMs` after it was
 * pushed, strictly in push order (data and the close that follows it arrive in the order sent).
 * With no delay, actions run at once, as if there were no line.
 */
export class DelayLine {
  private readonly queue: Array<{ due: number; action: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly delayMs: number) {}

  push(action: () => void): void {
    if (this.delayMs <= 0) {
      action();
      return;
    }
    this.queue.push({ due: performance.now() + this.delayMs, action });
    if (this.timer === undefined) this.arm();
  }

  /** Drops what is still in flight (the link is gone). */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }

  private arm(): void {
    const head = this.queue[0];
    if (!head) return;
    this.timer = setTimeout(
      () => this.drain(),
      Math.max(0, Math.ceil(head.due - performance.now())),
    );
  }

  private drain(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.queue[0] && this.queue[0].due <= now) this.queue.shift()?.action();
    this.arm();
  }
}
