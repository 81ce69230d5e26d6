// The studio's home: every own track in every state, converting ones followed live, failed ones
// retried, any deleted.
import type { OwnTrack } from "@edge-music/client";
import { useRef, useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { Cover } from "../../ui/cover.tsx";
import { useFocusAt } from "../../ui/focus.ts";
import { formatTime } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useLatest, useResource } from "../../ui/resource.ts";
import { MAX_ATTEMPTS, retryConversion, statusText, useTrackState } from "./live.ts";
import { ArtistOnly, allPages } from "./shell.tsx";

export function Studio() {
  return <ArtistOnly title="Your tracks">{() => <Tracks />}</ArtistOnly>;
}

function Tracks() {
  const tracks = useResource(
    (signal) =>
      allPages(async (page, limit) =>
        unwrap(
          await api("artist").GET("/api/v1/artists/me/tracks", {
            params: { query: { page, limit } },
            signal,
          }),
        ),
      ),
    [],
  );
  // One polite announcement when a conversion ends, not one per progress step of every row.
  const [news, setNews] = useState("");
  const list = tracks.data;
  // Deletions that end after others must see their result, not the list of their render.
  const latest = useLatest(tracks);
  // After a delete: the next track's Delete button, else the page's heading.
  const { box, focusAt } = useFocusAt<HTMLUListElement>("button[data-delete]");
  const deleted = (id: string) => {
    const index = latest.get().findIndex((t) => t.id === id);
    if (index >= 0) focusAt(index);
    latest.set(latest.get().filter((t) => t.id !== id));
  };
  return (
    <>
      <PageTitle title="Your tracks">Your tracks</PageTitle>
      <p class="visually-hidden" role="status">
        {news}
      </p>
      {tracks.error ? (
        <ErrorMessage error={tracks.error} />
      ) : !list ? (
        <Loading />
      ) : list.length === 0 ? (
        <p>
          No tracks yet. <a href="/studio/upload">Upload your first track</a>.
        </p>
      ) : (
        <ul class="tracks" aria-label="Your tracks" ref={box}>
          {list.map((track) => (
            <TrackRow
              key={track.id}
              track={track}
              onFinal={(text) => setNews(`${track.title}: ${text}`)}
              onDeleted={() => deleted(track.id)}
            />
          ))}
        </ul>
      )}
    </>
  );
}

function TrackRow({
  track,
  onFinal,
  onDeleted,
}: {
  track: OwnTrack;
  onFinal: (text: string) => void;
  onDeleted: () => void;
}) {
  const [state, setState] = useTrackState(track.id, track, (s) => onFinal(statusText(s)));
  const { busy, error, run } = useAction();
  const { title } = track;
  const path = { params: { path: { id: track.id } } };
  const deleteButton = useRef<HTMLButtonElement>(null);
  const retry = () =>
    run(async () => {
      setState(await retryConversion(track.id));
      // The Retry button goes with the failure: the row's other button takes the focus.
      deleteButton.current?.focus();
    });
  const remove = () => {
    if (!confirm(`Delete “${title}”? This cannot be undone.`)) return;
    void run(async () => {
      unwrap(await api("artist").DELETE("/api/v1/tracks/{id}", path));
      onDeleted();
    });
  };
  const { processingStatus: status, processingProgress: progress } = state;
  return (
    <li class="track">
      <Cover src={track.cover} size={40} />
      <div class="track-text">
        {status === "READY" ? (
          <a href={`/tracks/${track.id}`} class="ellipsis">
            {title}
          </a>
        ) : (
          <span class="ellipsis">{title}</span>
        )}
        <span class="row small">
          <span class={`status ${status}`}>{statusText(state)}</span>
          {status === "READY" && <span class="muted duration">{formatTime(track.duration)}</span>}
          {status === "PROCESSING" && state.processingAttempts > 1 && (
            <span class="muted">
              Attempt {state.processingAttempts} of {MAX_ATTEMPTS}
            </span>
          )}
        </span>
        {status === "PROCESSING" && progress > 0 && (
          <progress aria-label={`Conversion of ${title}`} value={progress} max={100} />
        )}
        {status === "FAILED" && (
          <span class="error small">
            Failed: {state.processingError ?? "the conversion failed."}
          </span>
        )}
        <ErrorMessage error={error} />
      </div>
      {status === "FAILED" && (
        <button type="button" aria-label={`Retry ${title}`} aria-busy={busy} onClick={retry}>
          Retry
        </button>
      )}
      <button
        type="button"
        class="danger"
        aria-label={`Delete ${title}`}
        aria-busy={busy}
        data-delete
        ref={deleteButton}
        onClick={remove}
      >
        Delete
      </button>
    </li>
  );
}
