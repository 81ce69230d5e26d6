import { createRequestRedis, type RedisClient } from "./redis.ts";

/**
 * The seat of one listener of live status, counted in Redis so that the caps hold across every
 * isolate: a sorted set per account and one per track of that account, of seat ids scored by
 * when (ms, Redis's clock) their stream ends at the latest. A seat whose stream died without
 * leaving it (an isolate gone) is trimmed once its score has passed. Both keys carry the account
 * as their hash tag: one slot, so one script may touch both on a Redis Cluster.
 */
export interface Seat {
  trackKey: string;
  accountKey: string;
  id: string;
}

/** A new seat of `accountId`'s listener of `trackId` (not taken yet). */
export const seatFor = (accountId: string, trackId: string): Seat => ({
  trackKey: `track-listeners:{${accountId}}:${trackId}`,
  accountKey: `track-listeners:{${accountId}}`,
  id: crypto.randomUUID(),
});

export interface SeatRules {
  /** Listeners at once of one track, and of one account over all its tracks. */
  perTrack: number;
  perAccount: number;
  /** How long the seat is held at most: the stream's lifetime and a margin. */
  holdMs: number;
}

/**
 * KEYS: the track's set, the account's. ARGV: seat id, hold (ms), the track's cap, the account's.
 * Trims the seats that have ended, then takes one in both sets if neither is full. One script,
 * so two listeners arriving at once cannot both slip under a cap. Answers 0 when taken, else the
 * seconds until the first seat of the full set ends at the latest (Retry-After). Each key
 * expires with its last seat, so nothing is left behind.
 */
const TAKE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i]) then
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return math.max(1, math.ceil((tonumber(first[2]) - now) / 1000))
  end
end
local ends = string.format('%.0f', now + tonumber(ARGV[2]))
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ends, ARGV[1])
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', key, last[2])
end
return 0`;

const LEAVE = `
for _, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[1]) end
return 0`;

/** Takes the seat: 0 when taken, else the seconds to wait before trying again. */
export async function takeSeat(redis: RedisClient, seat: Seat, rules: SeatRules): Promise<number> {
  const answer = await redis.eval(
    TAKE,
    2,
    seat.trackKey,
    seat.accountKey,
    seat.id,
    Math.ceil(rules.holdMs),
    rules.perTrack,
    rules.perAccount,
  );
  return Number(answer);
}

/** Leaves the seat (nothing when it was not taken or has already been left). */
export async function leaveSeat(redis: RedisClient, seat: Seat): Promise<void> {
  await redis.eval(LEAVE, 2, seat.trackKey, seat.accountKey, seat.id);
}

/**
 * Leaves the seat over a short connection of its own: after a listener's abort, its connection
 * is blocked in XREAD (a command sent on it would wait behind the read) and is dropped instead.
 */
export async function leaveSeatApart(url: string, seat: Seat): Promise<void> {
  const redis = createRequestRedis(url);
  // A failure reaches the caller as the command's rejection; unheard, the event is only printed.
  redis.on("error", () => {});
  try {
    await leaveSeat(redis, seat);
  } finally {
    redis.disconnect();
  }
}
