// Numbers as people read them.

/** Seconds as "3:07"; "–:––" when unknown. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A running time: "4:05", or with hours "1:02:09"; the unknown parts left out of the sum. */
export function formatTotal(durations: Array<number | null | undefined>): string {
  const total = Math.floor(
    durations.reduce<number>((sum, d) => sum + (d != null && Number.isFinite(d) ? d : 0), 0),
  );
  if (total < 3600) return formatTime(total);
  const minutes = Math.floor(total / 60) % 60;
  const seconds = total % 60;
  return `${Math.floor(total / 3600)}:${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}

/** "1 track", "2 tracks". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The name an artist shows to people: their display name, else their username. */
export const shownName = (a: { username: string; displayName?: string | null }) =>
  a.displayName ?? a.username;

/** A moment as people read it here ("27 Nov 2026, 18:02"). */
export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
