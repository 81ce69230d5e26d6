// Numbers as people read them.

/** Seconds as "3:07"; "–:––" when unknown. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** "1 track", "2 tracks". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
