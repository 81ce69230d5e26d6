// "Keep playing similar tracks": when the queue runs out, what the last track's listeners also
// played (GET /tracks/{id}/related) is added to it and plays on. The setting is kept in this
// browser; it is on unless turned off (the queue panel's checkbox).
import type { components } from "../api.ts";
import type { QueueItem } from "./queue.ts";

export const SIMILAR_KEY = "edge-music.similar";

/** Whether the listener left the setting on (the default: a queue that ends in silence is rarely wanted). */
export const similarStored = (): boolean => localStorage.getItem(SIMILAR_KEY) !== "off";

export const storeSimilar = (on: boolean): void =>
  localStorage.setItem(SIMILAR_KEY, on ? "on" : "off");

/** How many related tracks are asked for when the queue ends. */
export const SIMILAR_LIMIT = 10;

/** The related tracks worth adding: none already in the queue, each once, in the API's order. */
export function similarToAdd(
  related: components["schemas"]["Track"][],
  queue: readonly QueueItem[],
): QueueItem[] {
  const known = new Set(queue.map((item) => item.id));
  const added: QueueItem[] = [];
  for (const track of related) {
    if (known.has(track.id)) continue;
    known.add(track.id);
    const { id, username, displayName } = track.artist;
    added.push({
      id: track.id,
      title: track.title,
      cover: track.cover,
      duration: track.duration ?? null,
      artist: { id, username, displayName },
      gainDb: track.loudness?.gainDb ?? null,
    });
  }
  return added;
}
