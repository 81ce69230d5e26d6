// What plays next: pure rules, kept apart from the audio element so they are tested alone.

export interface QueueItem {
  id: string;
  title: string;
  artist: { id: string; username: string } | null;
  cover: string | null;
  duration: number | null;
  /**
   * The loudness correction in dB when the list the item came from carried it (a track's
   * `loudness.gainDb`; null: none measured); undefined when unknown, and the player reads it.
   */
  gainDb?: number | null;
}

/** "Previous" restarts the track once it has played this long, as players do. */
export const RESTART_AFTER_SECONDS = 3;

export function nextIndex(index: number, length: number): number | null {
  return index + 1 < length ? index + 1 : null;
}

/** Where "previous" goes: the same track from its start, or the one before. */
export function previousTarget(
  index: number,
  currentTime: number,
): { index: number; restart: boolean } | null {
  if (index < 0) return null;
  if (currentTime > RESTART_AFTER_SECONDS || index === 0) return { index, restart: true };
  return { index: index - 1, restart: false };
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
