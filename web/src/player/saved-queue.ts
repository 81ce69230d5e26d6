// The queue kept in this browser (localStorage) across reloads: what it holds, where the current
// track was, shuffle and repeat. What is read back is checked field by field and bounded: the
// storage may hold anything (an older version, another tab's half-written value, a hand edit),
// and a bad value must cost the saved queue at most, never the page. Also the rules of the copies
// (a long queue's window; which of this browser's and the server's copy wins), tested alone.
import type { QueueItem, QueueState, RepeatMode } from "./queue.ts";

export const QUEUE_KEY = "edge-music.queue";
/** Entries kept: the current one and those after it first (a longer queue is cut around it). */
export const SAVED_ITEMS_MAX = 500;
/** Entries kept before the current one when the queue is cut. */
const SAVED_BEFORE = 50;
/** A stored value longer than this is not read at all (500 entries take far less). */
const SAVED_CHARS_MAX = 1_000_000;
const VERSION = 1;

export interface SavedQueue extends QueueState {
  /** Seconds into the current track. */
  position: number;
  repeat: RepeatMode;
  /** When it was saved (ms since the epoch): the newer of two copies wins. */
  savedAt: number;
}

/**
 * Where a copy of at most `max` of `length` entries starts: SAVED_BEFORE entries before the
 * current one (`index`), the rest after it, within the queue.
 */
export function windowStart(length: number, index: number, max: number): number {
  return Math.max(0, Math.min(index - SAVED_BEFORE, length - max));
}

/**
 * Whether the copy of the queue saved on the server replaces this browser's: never once the
 * listener did something in this page, always when this browser's is empty, else when it is
 * newer and another browser saved it (this one's own saves are no news to it).
 */
export function serverCopyWins(
  server: { changedAt: string | null; changedBy: string; tracks: number },
  here: { acted: boolean; entries: number; changedAt: number },
  me: string,
): boolean {
  if (server.changedAt === null || server.tracks === 0 || here.acted) return false;
  if (here.entries === 0) return true;
  return server.changedBy !== me && Date.parse(server.changedAt) > here.changedAt;
}

/** The queue as stored: at most SAVED_ITEMS_MAX entries around the current one. */
export function encodeQueue(queue: SavedQueue): string {
  const { items, index, ranks } = queue;
  const start = windowStart(items.length, index, SAVED_ITEMS_MAX);
  const end = start + SAVED_ITEMS_MAX;
  return JSON.stringify({
    v: VERSION,
    items: items.slice(start, end),
    index: index < 0 ? -1 : index - start,
    ranks: ranks ? ranks.slice(start, end) : null,
    position: queue.position,
    repeat: queue.repeat,
    savedAt: queue.savedAt,
  });
}

/** The stored queue, or null when there is none or it cannot be trusted. Never throws. */
export function decodeQueue(text: string | null): SavedQueue | null {
  if (!text || text.length > SAVED_CHARS_MAX) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw) || raw.v !== VERSION || !Array.isArray(raw.items)) return null;
  const kept: QueueItem[] = [];
  const keptAt: number[] = [];
  raw.items.slice(0, SAVED_ITEMS_MAX).forEach((value, i) => {
    const item = queueItem(value);
    if (item) {
      kept.push(item);
      keptAt.push(i);
    }
  });
  const rawIndex = integer(raw.index, -1, raw.items.length - 1) ?? -1;
  // An entry that did not pass is dropped; the current one dropped, the queue starts again.
  const index = kept.length === 0 || rawIndex < 0 ? -1 : Math.max(0, keptAt.indexOf(rawIndex));
  const sameCurrent = rawIndex >= 0 && keptAt[index] === rawIndex;
  const rawRanks = Array.isArray(raw.ranks) ? raw.ranks : null;
  const ranks = rawRanks
    ? keptAt.map((i) => integer(rawRanks[i], 0, Number.MAX_SAFE_INTEGER))
    : null;
  return {
    items: kept,
    index,
    ranks: ranks?.every((r): r is number => r !== null) ? ranks : null,
    position: sameCurrent ? (finite(raw.position, 0, 24 * 3600) ?? 0) : 0,
    repeat: raw.repeat === "all" || raw.repeat === "one" ? raw.repeat : "off",
    savedAt: finite(raw.savedAt, 0, Number.MAX_SAFE_INTEGER) ?? 0,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A path of this origin's media (`/static/…`), never another origin or scheme. */
const MEDIA_PATH = /^\/(?!\/)[^\s\\]{0,500}$/;

function queueItem(value: unknown): QueueItem | null {
  if (!isObject(value) || !isId(value.id) || !text(value.title)) return null;
  const artist = value.artist;
  let checkedArtist: QueueItem["artist"] = null;
  if (artist !== null) {
    if (!isObject(artist) || !isId(artist.id) || !text(artist.username)) return null;
    checkedArtist = { id: artist.id, username: artist.username };
    if (text(artist.displayName)) checkedArtist.displayName = artist.displayName;
  }
  const cover = value.cover;
  if (cover !== null && !(typeof cover === "string" && MEDIA_PATH.test(cover))) return null;
  const duration = value.duration === null ? null : finite(value.duration, 0, 24 * 3600);
  if (duration === undefined) return null;
  const item: QueueItem = {
    id: value.id,
    title: value.title,
    artist: checkedArtist,
    cover,
    duration,
  };
  // Unknown (absent) and none measured (null) differ: the player reads an unknown one.
  if (value.gainDb === null) item.gainDb = null;
  else if (value.gainDb !== undefined) {
    const gain = finite(value.gainDb, -60, 60);
    if (gain === undefined) return null;
    item.gainDb = gain;
  }
  return item;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
const text = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= 500;

function finite(value: unknown, min: number, max: number): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max
    ? value
    : undefined;
}

function integer(value: unknown, min: number, max: number): number | null {
  const n = finite(value, min, max);
  return n !== undefined && Number.isInteger(n) ? n : null;
}

/** The saved queue of this browser; null without one (or without storage). */
export function readSavedQueue(): SavedQueue | null {
  try {
    return decodeQueue(localStorage.getItem(QUEUE_KEY));
  } catch {
    return null; // Storage refused (a privacy mode): nothing saved.
  }
}

export function writeSavedQueue(queue: SavedQueue): void {
  try {
    if (queue.items.length === 0) localStorage.removeItem(QUEUE_KEY);
    else localStorage.setItem(QUEUE_KEY, encodeQueue(queue));
  } catch {
    // Storage full or refused: the queue is not kept past this page, and playback goes on.
  }
}
