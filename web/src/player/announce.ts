// What the player says to screen readers without moving the focus ("Added … to the queue"): the
// player bar (bar.tsx) shows the latest sentence a while, in a polite live region, or in an
// alert for a failure. Each sentence is new text in the region, so the same one twice is read
// twice.
import { signal } from "@preact/signals";

export const announcement = signal<{ text: string; n: number; alert: boolean }>({
  text: "",
  n: 0,
  alert: false,
});

export function announce(text: string, { alert = false } = {}): void {
  announcement.value = { text, n: announcement.value.n + 1, alert };
}
