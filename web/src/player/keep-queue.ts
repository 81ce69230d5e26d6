// The queue outlives the page: restored (paused, at its position) when the player starts, saved
// in this browser on every change of the queue, shuffle, repeat or play/pause, every few seconds
// of playing, and when the page goes away; and, for a signed-in listener, on the server too
// (server-queue.ts), which another browser goes on from.
import { effect } from "@preact/signals";
import { player } from "./engine.ts";
import { readSavedQueue, type SavedQueue, writeSavedQueue } from "./saved-queue.ts";
import { syncQueueWithServer } from "./server-queue.ts";

/** Seconds of playing between two saves of the position alone. */
const POSITION_EVERY_MS = 5_000;

/** The player's queue as saved now. */
export function queueNow(): SavedQueue {
  return {
    ...player.state.peek(),
    position: player.position(),
    repeat: player.repeat.peek(),
    savedAt: player.changedAt(),
  };
}

/** Restores the saved queue, then keeps it saved; answers the function that stops saving. */
export function keepQueue(): () => void {
  const saved = readSavedQueue();
  if (saved) player.restore(saved);
  let written = 0;
  /** Something changed since the start: a queue only read is not saved again (nor newer). */
  let touched = false;
  const save = () => {
    if (!touched) return;
    written = Date.now();
    writeSavedQueue(queueNow());
  };
  let seen: unknown[] = [];
  const stop = effect(() => {
    const changes = [player.state.value, player.repeat.value, player.playing.value];
    const time = player.currentTime.value;
    const first = seen.length === 0;
    const changed = changes.some((value, i) => value !== seen[i]);
    seen = changes;
    if (first) return;
    touched = true;
    if (changed || (time > 0 && Date.now() - written >= POSITION_EVERY_MS)) save();
  });
  const onHidden = () => {
    if (document.visibilityState === "hidden") save();
  };
  addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", onHidden);
  const stopServer = syncQueueWithServer();
  return () => {
    stopServer();
    stop();
    removeEventListener("pagehide", save);
    document.removeEventListener("visibilitychange", onHidden);
  };
}
