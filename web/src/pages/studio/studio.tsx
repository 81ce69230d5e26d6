// The studio's home: every own track in every state, converting ones followed live (with what
// the conversion found, at READY), edited (title, album, cover), failed ones retried, any deleted.
import type { OwnTrack } from "@edge-music/client";
import { useRef, useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import type { ArtistAccount } from "../../session.ts";
import { useAction } from "../../ui/action.ts";
import { Cover } from "../../ui/cover.tsx";
import { useFocusAt } from "../../ui/focus.ts";
import { formatTime } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useLatest, useResource } from "../../ui/resource.ts";
import { MAX_ATTEMPTS, readOwnTrack, retryConversion, statusText, useTrackState } from "./live.ts";
import { ArtistOnly, allPages, useOwnTracks } from "./shell.tsx";
import { TrackEdit } from "./track-edit.tsx";

type AlbumSummary = components["schemas"]["AlbumSummary"];

export function Studio() {
  return <ArtistOnly title="Your tracks">{(artist) => <Tracks artist={artist} />}</ArtistOnly>;
}

function Tracks({ artist }: { artist: ArtistAccount }) {
  const tracks = useOwnTracks();
  // The albums a track can be moved to (the edit form's choice).
  const albums = useResource(
    (signal) =>
      allPages(async (page, limit) =>
        unwrap(
          await api("artist").GET("/api/v1/artists/{id}/albums", {
            params: { path: { id: artist.id }, query: { page, limit } },
            signal,
          }),
        ),
      ),
    [artist.id],
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
              albums={albums.data}
              onNews={setNews}
              onDeleted={() => deleted(track.id)}
            />
          ))}
        </ul>
      )}
    </>
  );
}

function TrackRow({
  track: initial,
  albums,
  onNews,
  onDeleted,
}: {
  track: OwnTrack;
  albums: AlbumSummary[] | undefined;
  onNews: (text: string) => void;
  onDeleted: () => void;
}) {
  // The row's own copy: an edit's answer, or the track read again when its conversion ends.
  const [track, setTrack] = useState(initial);
  const [state, setState] = useTrackState(track.id, track, (s) => {
    onNews(`${track.title}: ${statusText(s)}`);
    // The duration and an embedded cover come with READY, and with FAILED whether the file itself
    // is at fault: read the track, no reload needed.
    if (s.processingStatus !== "PROCESSING") readOwnTrack(track.id).then(setTrack, () => {});
  });
  const [editing, setEditing] = useState(false);
  const { busy, error, run } = useAction();
  const { title } = track;
  const path = { params: { path: { id: track.id } } };
  const deleteButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEdit = () => {
    setEditing(false);
    // The form goes: its Edit button takes the focus back.
    editButton.current?.focus();
  };
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
  // Converting it again would fail the same way: the artist is told to upload another file.
  const unreadable = status === "FAILED" && track.sourceUnreadable;
  return (
    <li class="track wrap">
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
          <span class="muted">{track.album ? `Album: ${track.album.title}` : "Single"}</span>
          {track.visibility !== "public" && (
            <span class="muted">{track.visibility === "unlisted" ? "Unlisted" : "Private"}</span>
          )}
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
            {unreadable && (
              <>
                {" "}
                This file cannot be converted: <a href="/studio/upload">upload another file</a>.
              </>
            )}
          </span>
        )}
        <ErrorMessage error={error} />
      </div>
      <button
        type="button"
        aria-label={`Edit ${title}`}
        aria-expanded={editing}
        ref={editButton}
        onClick={() => (editing ? closeEdit() : setEditing(true))}
      >
        Edit
      </button>
      {status === "FAILED" && !unreadable && (
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
      {editing && (
        <TrackEdit
          track={track}
          albums={albums}
          onClose={closeEdit}
          onSaved={(saved) => {
            setTrack(saved);
            closeEdit();
            onNews(`Saved “${saved.title}”.`);
          }}
        />
      )}
    </li>
  );
}
