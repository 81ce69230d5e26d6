// A track's conversion state, kept live from GET /tracks/{id}/events while it converts.
import type { OwnTrack } from "@edge-music/client";
import { AUDIO_PROCESSING_JOB_OPTIONS } from "@edge-music/contracts/job-options";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";

export type TrackState = Pick<
  OwnTrack,
  "processingStatus" | "processingProgress" | "processingError" | "processingAttempts"
>;

/** A failed conversion started again (POST /tracks/{id}/retry): the track's new state. */
export const retryConversion = async (id: string): Promise<TrackState> =>
  unwrap(await api("artist").POST("/api/v1/tracks/{id}/retry", { params: { path: { id } } }));

/** The API's attempts per conversion (an upload or a retry): the queue's own job options. */
export const MAX_ATTEMPTS = AUDIO_PROCESSING_JOB_OPTIONS.attempts;

/** "Ready", "Failed", "Waiting" (queued, nothing done yet) or "Converting 40 %". */
export function statusText({ processingStatus, processingProgress }: TrackState): string {
  if (processingStatus === "READY") return "Ready";
  if (processingStatus === "FAILED") return "Failed";
  return processingProgress > 0 ? `Converting ${processingProgress} %` : "Waiting";
}

const isState = (value: unknown): value is TrackState =>
  typeof value === "object" &&
  value !== null &&
  "processingStatus" in value &&
  typeof value.processingStatus === "string" &&
  "processingProgress" in value &&
  typeof value.processingProgress === "number";

function parseState(data: unknown): TrackState | null {
  try {
    const value: unknown = JSON.parse(String(data));
    return isState(value) ? value : null;
  } catch {
    return null;
  }
}

/** Times a refused stream (an expired access cookie answers 401) is opened again after a refresh. */
const REOPENS = 3;

/**
 * The state of track `id`, starting from `initial`: while it is PROCESSING one EventSource feeds
 * it, closed at READY or FAILED and on unmount. Setting a PROCESSING state (after a retry) opens
 * the stream again. `onFinal` hears the end of a conversion seen live.
 */
export function useTrackState(
  id: string,
  initial: TrackState,
  onFinal?: (state: TrackState) => void,
): [TrackState, (state: TrackState) => void] {
  const [state, setState] = useState(initial);
  const live = state.processingStatus === "PROCESSING";
  // One stream per conversion: onFinal is read when the conversion ends, not a reason to reopen.
  useEffect(() => {
    if (!live) return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let reopened = 0;
    const open = () => {
      if (stopped) return;
      const events = new EventSource(`/api/v1/tracks/${encodeURIComponent(id)}/events`);
      source = events;
      events.addEventListener("status", (event) => {
        const next = parseState(event.data);
        if (!next) return;
        reopened = 0;
        setState(next);
        if (next.processingStatus !== "PROCESSING") {
          events.close();
          onFinal?.(next);
        }
      });
      // EventSource reconnects by itself after a dropped connection, but gives up on a refusal.
      events.addEventListener("error", () => {
        if (events.readyState !== EventSource.CLOSED || reopened >= REOPENS) return;
        reopened += 1;
        timer = setTimeout(() => {
          void api("artist")
            .refreshSession()
            .then((ok) => ok && open());
        }, 1000 * reopened);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [id, live]);
  return [state, setState];
}
