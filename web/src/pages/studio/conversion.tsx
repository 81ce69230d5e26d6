// A just-uploaded track's conversion, followed live: converting, then ready or failed (retry).
import type { OwnTrack } from "@edge-music/client";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { ErrorMessage } from "../../ui/parts.tsx";
import { useTrackState } from "./live.ts";

export function Conversion({ track }: { track: OwnTrack }) {
  const [state, setState] = useTrackState(track.id, track);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The form that had focus is gone: the news takes it.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const retry = async () => {
    setBusy(true);
    setError(null);
    try {
      const path = { params: { path: { id: track.id } } };
      setState(unwrap(await api("artist").POST("/api/v1/tracks/{id}/retry", path)));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
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
          `Failed: ${state.processingError ?? "the conversion failed."}`
        ) : (
          `Converting… ${progress} %${progress === 0 ? " (waiting for the converter)" : ""}`
        )}
      </p>
      {status === "PROCESSING" && (
        <progress aria-label="Conversion progress" value={progress} max={100} />
      )}
      {status === "FAILED" && (
        <button type="button" disabled={busy} onClick={retry}>
          Retry
        </button>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
