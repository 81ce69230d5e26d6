// The lock screen's and the headset's view of the player (the Media Session API): what plays,
// where it is, and the controls it offers. Every call does nothing where the API is missing.
import { artistName, type QueueItem } from "./queue.ts";

const supported = () => "mediaSession" in navigator;

/** What the player can be asked to do from outside the page. */
export interface Controls {
  play(): void;
  pause(): void;
  previous(): void;
  next(): void;
  seek(seconds: number): void;
  seekBy(seconds: number): void;
}

/** The track shown on the lock screen; none for null. */
export function showTrack(item: QueueItem | null): void {
  if (!supported()) return;
  navigator.mediaSession.metadata = item
    ? new MediaMetadata({
        title: item.title,
        artist: item.artist ? artistName(item.artist) : "",
        album: "Edge Music",
        artwork: item.cover ? [{ src: new URL(item.cover, location.origin).toString() }] : [],
      })
    : null;
}

/** Hands the lock screen's buttons to the player. */
export function bindControls(controls: Controls): void {
  if (!supported()) return;
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ["play", () => controls.play()],
    ["pause", () => controls.pause()],
    ["previoustrack", () => controls.previous()],
    ["nexttrack", () => controls.next()],
    ["seekbackward", (d) => controls.seekBy(-(d.seekOffset ?? 10))],
    ["seekforward", (d) => controls.seekBy(d.seekOffset ?? 10)],
    ["seekto", (d) => d.seekTime != null && controls.seek(d.seekTime)],
  ];
  for (const [action, handler] of handlers) {
    try {
      navigator.mediaSession.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
}

/** Where the audio is, for the lock screen's progress. */
export function showPosition(audio: HTMLAudioElement): void {
  if (!supported() || !Number.isFinite(audio.duration)) return;
  try {
    navigator.mediaSession.setPositionState({
      duration: audio.duration,
      position: Math.min(audio.currentTime, audio.duration),
      playbackRate: audio.playbackRate,
    });
  } catch {
    // A position the browser rejects (a duration still 0).
  }
}
