// The owner's tracks of their playlist: move up or down, remove.
import { useRef, useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import { useFocusNext } from "../../ui/focus.ts";
import { Icon } from "../../ui/icons.tsx";
import { ErrorMessage } from "../../ui/messages.tsx";
import { MoveButtons } from "../../ui/move-buttons.tsx";
import { type TrackLike, TrackList } from "../../ui/track-list.tsx";

type Playlist = components["schemas"]["Playlist"];

/**
 * The owner's track list: move and remove, shown at once. Writes go to the API one at a time,
 * in order; after one fails, the list is read again (else the last answer's is put back).
 * Keyboard focus stays on the moved track's button (a moved or removed row would drop it).
 */
export function OwnTracks({ playlist, set }: { playlist: Playlist; set: (p: Playlist) => void }) {
  const client = api("user");
  const { id } = playlist;
  const [status, setStatus] = useState("");
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(playlist);
  latest.current = playlist;
  const confirmed = useRef(playlist.tracks);
  const queue = useRef(Promise.resolve());
  const writes = useRef(0);
  // Focus goes to the first of the buttons named by keys that is there and enabled, else to the
  // list's heading.
  const { box, focusNext } = useFocusNext<HTMLElement>((within) =>
    within?.querySelector<HTMLElement>("h2"),
  );
  const focusFirst = (keys: string[]) =>
    focusNext((within) =>
      keys
        .map((key) => within.querySelector<HTMLElement>(`button[data-key="${key}"]:not(:disabled)`))
        .find(Boolean),
    );

  const write = (tracks: Playlist["tracks"], send: () => Promise<Playlist>, done: string) => {
    const n = ++writes.current;
    setError(null);
    setStatus("");
    set({ ...playlist, tracks, _count: { ...playlist._count, tracks: tracks.length } });
    queue.current = queue.current.then(async () => {
      try {
        const answer = await send();
        confirmed.current = answer.tracks;
        setStatus(done);
        if (n === writes.current) set(answer);
      } catch (e) {
        setError(e);
        // The server's list is the truth (a 409: it changed elsewhere): read it again, or at
        // least go back to its last answer.
        const fresh = await client
          .GET("/api/v1/playlists/{id}", { params: { path: { id } } })
          .then(unwrap, () => null);
        if (fresh) confirmed.current = fresh.tracks;
        const tracks = confirmed.current;
        set(
          fresh ?? {
            ...latest.current,
            tracks,
            _count: { ...latest.current._count, tracks: tracks.length },
          },
        );
      }
    });
  };

  const move = (index: number, by: -1 | 1) => {
    const tracks = [...playlist.tracks];
    const [track] = tracks.splice(index, 1);
    if (!track) return;
    tracks.splice(index + by, 0, track);
    const trackIds = tracks.map((t) => t.id);
    const [ahead, back] = by < 0 ? ["up", "down"] : ["down", "up"];
    focusFirst([`${ahead} ${track.id}`, `${back} ${track.id}`]);
    write(
      tracks,
      async () =>
        unwrap(
          await client.PUT("/api/v1/playlists/{id}/tracks", {
            params: { path: { id } },
            body: { trackIds },
          }),
        ),
      `Moved ${track.title} to position ${index + by + 1} of ${tracks.length}.`,
    );
  };

  const remove = (index: number, track: TrackLike) => {
    const tracks = playlist.tracks.filter((t) => t.id !== track.id);
    focusFirst([tracks[index], tracks[index - 1]].map((t) => `remove ${t?.id}`));
    write(
      tracks,
      async () =>
        unwrap(
          await client.DELETE("/api/v1/playlists/{id}/tracks/{trackId}", {
            params: { path: { id, trackId: track.id } },
          }),
        ),
      `Removed ${track.title} from the playlist.`,
    );
  };

  const last = playlist.tracks.length - 1;
  return (
    <section aria-labelledby="playlist-tracks" ref={box}>
      <h2 id="playlist-tracks" tabIndex={-1}>
        Tracks
      </h2>
      <TrackList
        tracks={playlist.tracks}
        label={`Tracks of ${playlist.title}`}
        actions={(track, i) => (
          <>
            {/* The arrows stacked: the row keeps room for the title on a phone. */}
            <span class="stack">
              <MoveButtons title={track.title} id={track.id} index={i} last={last} onMove={move} />
            </span>
            <button
              type="button"
              class="icon small danger"
              aria-label={`Remove ${track.title} from the playlist`}
              data-key={`remove ${track.id}`}
              onClick={() => remove(i, track)}
            >
              <Icon name="close" size={16} />
            </button>
          </>
        )}
      />
      <p role="status" class="muted small">
        {status}
      </p>
      <ErrorMessage error={error} />
    </section>
  );
}
