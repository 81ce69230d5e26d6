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
 * How often the track is read instead, once its stream stays refused (the API caps live streams
 * per track and per account, 429): the row keeps moving, only less often.
 */
const POLL_MS = 5_000;

/**
 * The track as GET /tracks/{id} shows it to its owner: what a conversion measured and found
 * (duration, embedded cover) comes with READY here, not in the live stream's states.
 */
export async function readOwnTrack(id: string, signal?: AbortSignal): Promise<OwnTrack> {
  const track = unwrap(
    await api("artist").GET("/api/v1/tracks/{id}", {
      params: { path: { id } },
      ...(signal ? { signal } : {}),
    }),
  );
  if (!("processingStatus" in track)) throw new Error("the track was not read as its owner's");
  return track;
}

/** The state fields of a track as GET /tracks/{id} shows them to its owner. */
async function readState(id: string, signal: AbortSignal): Promise<TrackState> {
  const { processingStatus, processingProgress, processingError, processingAttempts } =
    await readOwnTrack(id, signal);
  return { processingStatus, processingProgress, processingError, processingAttempts };
}

/**
 * The state of track `id`, starting from `initial`: while it is PROCESSING one EventSource feeds
 * it, closed at READY or FAILED and on unmount; a stream that stays refused (past the API's caps
 * on live streams) gives way to reading the track every POLL_MS. Setting a PROCESSING state (after a retry) opens
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
    const reads = new AbortController();
    const finish = (next: TrackState) => {
      setState(next);
      if (next.processingStatus !== "PROCESSING") onFinal?.(next);
    };
    // The stream stays refused: read the track every POLL_MS until its conversion ends.
    const poll = () => {
      timer = setTimeout(() => {
        readState(id, reads.signal).then(
          (next) => {
            if (stopped) return;
            finish(next);
            if (next.processingStatus === "PROCESSING") poll();
          },
          () => !stopped && poll(),
        );
      }, POLL_MS);
    };
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
        if (events.readyState !== EventSource.CLOSED) return;
        if (reopened >= REOPENS) return poll();
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
      reads.abort();
      source?.close();
    };
  }, [id, live]);
  return [state, setState];
}
