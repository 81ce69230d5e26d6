// A just-uploaded track's conversion, followed live: converting, then ready or failed (retry).
import type { OwnTrack } from "@edge-music/client";
import { useEffect, useRef, useState } from "preact/hooks";
import { useAction } from "../../ui/action.ts";
import { ErrorMessage } from "../../ui/messages.tsx";
import { readOwnTrack, retryConversion, useTrackState } from "./live.ts";

export function Conversion({ track }: { track: OwnTrack }) {
  // Whether the file itself is at fault comes with the track read when the conversion fails.
  const [unreadable, setUnreadable] = useState(track.sourceUnreadable);
  const [state, setState] = useTrackState(track.id, track, (s) => {
    if (s.processingStatus === "FAILED") {
      readOwnTrack(track.id).then(
        (read) => setUnreadable(read.sourceUnreadable),
        () => {},
      );
    }
  });
  const { busy, error, run } = useAction();
  // The form that had focus is gone: the news takes it.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const retry = () =>
    run(async () => {
      setState(await retryConversion(track.id));
      // The Retry button goes with the failure: the focus goes to the section's heading.
      heading.current?.focus();
    });
  const { processingStatus: status, processingProgress: progress } = state;
  return (
    <section aria-labelledby="conversion">
      <h2 id="conversion" ref={heading} tabIndex={-1}>
        “{track.title}” is uploaded
      </h2>
      <p
        role="status"
        class={status === "READY" ? "ok" : status === "FAILED" ? "error" : undefined}
      >
        {status === "READY" ? (
          <>
            Ready. <a href={`/tracks/${track.id}`}>Listen</a>
          </>
        ) : status === "FAILED" ? (
          <>
            Failed: {state.processingError ?? "the conversion failed."}
            {unreadable && " This file cannot be converted: choose another file and upload it."}
          </>
        ) : (
          `Converting… ${progress} %${progress === 0 ? " (waiting for the converter)" : ""}`
        )}
      </p>
      {status === "PROCESSING" && (
        <progress aria-label="Conversion progress" value={progress} max={100} />
      )}
      {status === "FAILED" && !unreadable && (
        <button type="button" aria-busy={busy} onClick={retry}>
          Retry
        </button>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
