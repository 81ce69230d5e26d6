// What plays next: pure rules, kept apart from the audio element so they are tested alone. The
// queue's edits (shuffle, move, remove, clear) take a state and answer a new one.

export interface QueueItem {
  id: string;
  title: string;
  /** `displayName` once the API sends it with a track's artist: shown before the username. */
  artist: { id: string; username: string; displayName?: string | null } | null;
  cover: string | null;
  duration: number | null;
  /**
   * The loudness correction in dB when the list the item came from carried it (a track's
   * `loudness.gainDb`; null: none measured); undefined when unknown, and the player reads it.
   */
  gainDb?: number | null;
  /**
   * The HLS master's signed path of a track that is not public (read with its link's key: ADR
   * 0026); absent for public tracks, whose path the player makes from the id.
   */
  stream?: string;
}

/** The name to show for an artist: the display name when there is one. */
export const artistName = (artist: { username: string; displayName?: string | null }): string =>
  artist.displayName || artist.username;

export type RepeatMode = "off" | "all" | "one";

/** The repeat button's cycle: off → all → one → off. */
export function nextRepeat(mode: RepeatMode): RepeatMode {
  return mode === "off" ? "all" : mode === "all" ? "one" : "off";
}

/**
 * The queue: its entries, the one playing (−1: none yet), and, while shuffled, each entry's
 * rank in the order before the shuffle (null: not shuffled), so that turning shuffle off puts
 * back that order, with the entries added since at the end.
 */
export interface QueueState {
  items: QueueItem[];
  index: number;
  ranks: number[] | null;
}

export const EMPTY_QUEUE: QueueState = { items: [], index: -1, ranks: null };

/** "Previous" restarts the track once it has played this long, as players do. */
export const RESTART_AFTER_SECONDS = 3;

/** Where "Next" goes: one on; after the last, back to the first with repeat on, else nowhere. */
export function nextIndex(
  index: number,
  length: number,
  repeat: RepeatMode = "off",
): number | null {
  if (index + 1 < length) return index + 1;
  return repeat !== "off" && length > 0 ? 0 : null;
}

/** What plays when a track ends: the same one with repeat one, else as "Next". */
export function afterEnd(index: number, length: number, repeat: RepeatMode): number | null {
  if (repeat === "one" && index >= 0 && index < length) return index;
  return nextIndex(index, length, repeat);
}

/**
 * Where "previous" goes: the same track from its start, or the one before (from the first, the
 * last with repeat all).
 */
export function previousTarget(
  index: number,
  currentTime: number,
  length = 0,
  repeat: RepeatMode = "off",
): { index: number; restart: boolean } | null {
  if (index < 0) return null;
  if (currentTime > RESTART_AFTER_SECONDS) return { index, restart: true };
  if (index === 0) {
    return repeat === "all" && length > 1
      ? { index: length - 1, restart: false }
      : { index, restart: true };
  }
  return { index: index - 1, restart: false };
}

/** The ranks of a state, as if shuffled now (in order: each entry's own index). */
const ranksOf = (state: QueueState): number[] => state.ranks ?? state.items.map((_, i) => i);

/** A state built from an order of the old one's entries (old indices), the current one followed. */
function reordered(state: QueueState, order: number[], shuffled: boolean): QueueState {
  const ranks = ranksOf(state);
  return {
    items: order.map((i) => state.items[i] as QueueItem),
    index: state.index < 0 ? -1 : order.indexOf(state.index),
    ranks: shuffled ? order.map((i) => ranks[i] as number) : null,
  };
}

/**
 * Shuffle: the entry playing first, every other one after it in a uniformly random order
 * (Fisher–Yates over `random`, which answers in [0, 1)). Shuffling a shuffled queue keeps the
 * order from before the first shuffle.
 */
export function shuffled(state: QueueState, random: () => number = Math.random): QueueState {
  const current = state.index >= 0 && state.index < state.items.length ? state.index : -1;
  const rest = state.items.map((_, i) => i).filter((i) => i !== current);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j] as number, rest[i] as number];
  }
  return reordered(state, current < 0 ? rest : [current, ...rest], true);
}

/** Shuffle off: the order from before the shuffle (entries added since stay last). */
export function unshuffled(state: QueueState): QueueState {
  const { ranks } = state;
  if (!ranks) return state;
  const order = state.items
    .map((_, i) => i)
    .sort((a, b) => (ranks[a] as number) - (ranks[b] as number) || a - b);
  return reordered(state, order, false);
}

/** A new queue playing `start`; shuffled too when the old one was (the start first). */
export function replaced(
  state: QueueState,
  items: QueueItem[],
  start: number,
  random: () => number = Math.random,
): QueueState {
  const next: QueueState = { items, index: items.length ? start : -1, ranks: null };
  return state.ranks ? shuffled(next, random) : next;
}

/** Entries added at the end (after the shuffled ones too). */
export function appended(state: QueueState, items: QueueItem[]): QueueState {
  const { ranks } = state;
  const top = ranks ? ranks.reduce((max, r) => Math.max(max, r), -1) : -1;
  return {
    items: [...state.items, ...items],
    index: state.index,
    ranks: ranks ? [...ranks, ...items.map((_, i) => top + 1 + i)] : null,
  };
}

/** Without the entry at `i`; the entry playing cannot be removed (the same state). */
export function removed(state: QueueState, i: number): QueueState {
  if (i < 0 || i >= state.items.length || i === state.index) return state;
  const order = state.items.map((_, j) => j).filter((j) => j !== i);
  return reordered(state, order, state.ranks !== null);
}

/** The entry at `from` moved to `to` (both in range, else the same state). */
export function moved(state: QueueState, from: number, to: number): QueueState {
  const length = state.items.length;
  if (from === to || from < 0 || to < 0 || from >= length || to >= length) return state;
  const order = state.items.map((_, i) => i);
  order.splice(from, 1);
  order.splice(to, 0, from);
  return reordered(state, order, state.ranks !== null);
}

/** Only the entry playing is left (nothing when none plays); shuffle stays as it was. */
export function cleared(state: QueueState): QueueState {
  const current = state.index >= 0 && state.index < state.items.length ? [state.index] : [];
  return reordered(state, current, state.ranks !== null);
}

/** The gain of a track's loudness correction (dB), as a linear factor; none when unknown. */
export function gainFactor(gainDb: number | null | undefined): number {
  if (gainDb == null || !Number.isFinite(gainDb)) return 1;
  // The API already caps a boost so that the true peak stays at or below −1 dBTP.
  return 10 ** (gainDb / 20);
}

/** A bitrate in bits per second as people read it ("192 kbps"). */
export function qualityLabel(bitrate: number | undefined): string | null {
  return bitrate ? `${Math.round(bitrate / 1000)} kbps` : null;
}

/** `points` peaks (0–1) reduced to `bars` by the highest of each slice. */
export function downsample(points: readonly number[], bars: number): number[] {
  if (bars <= 0 || points.length === 0) return [];
  if (points.length <= bars) return [...points];
  const out: number[] = [];
  for (let i = 0; i < bars; i++) {
    const from = Math.floor((i * points.length) / bars);
    const to = Math.max(from + 1, Math.floor(((i + 1) * points.length) / bars));
    let peak = 0;
    for (let j = from; j < to; j++) peak = Math.max(peak, points[j] ?? 0);
    out.push(peak);
  }
  return out;
}
