// A playlist: anyone reads a public one and plays it; its owner edits it, reorders or removes its
// tracks and deletes it; another signed-in listener likes it.
import { useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type components, ProblemError, unwrap } from "../api.ts";
import { player } from "../player/engine.ts";
import { account } from "../session.ts";
import { useAction } from "../ui/action.ts";
import { useFocusNext } from "../ui/focus.ts";
import { Icon } from "../ui/icons.tsx";
import { Cover, ErrorMessage, Field, Form, Loading, PageTitle, plural } from "../ui/parts.tsx";
import { useResource } from "../ui/resource.ts";
import { type TrackLike, TrackList, toQueueItem } from "../ui/track-list.tsx";

type Playlist = components["schemas"]["Playlist"];

const MAX_COVER_BYTES = 5 * 1024 * 1024;

/** Title, description and visibility, as both the create and the edit form ask them. */
export function PlaylistFields({
  titleLabel,
  initial,
}: {
  titleLabel: string;
  initial?: Playlist;
}) {
  return (
    <>
      <Field
        label={titleLabel}
        name="title"
        required
        maxLength={100}
        autoComplete="off"
        defaultValue={initial?.title}
      />
      <div class="field">
        <label for="field-description">Description</label>
        <textarea
          id="field-description"
          name="description"
          rows={3}
          maxLength={1000}
          defaultValue={initial?.description}
        />
      </div>
      <label class="check">
        <input type="checkbox" name="isPublic" defaultChecked={initial?.isPublic} /> Public
      </label>
    </>
  );
}

export const playlistInput = (data: FormData) => ({
  title: String(data.get("title") ?? "").trim(),
  description: String(data.get("description") ?? "").trim(),
  isPublic: data.has("isPublic"),
});

export function PlaylistPage({ id }: { id: string }) {
  // Who is signed in decides what the page offers (and whose private playlist can be read); a
  // new id starts afresh (no like state or pending writes carried over).
  return account.value === undefined ? <Loading /> : <PlaylistView key={id} id={id} />;
}

function PlaylistView({ id }: { id: string }) {
  const playlist = useResource(
    async (signal) =>
      unwrap(await api().GET("/api/v1/playlists/{id}", { params: { path: { id } }, signal })),
    [id],
  );
  const liking = useAction();
  if (playlist.error) {
    const missing = playlist.error instanceof ProblemError && playlist.error.status === 404;
    const title = missing ? "Playlist not found" : "Playlist";
    return (
      <>
        <PageTitle title={title}>{title}</PageTitle>
        {missing ? (
          <p>
            This playlist does not exist, or it is private. <a href="/">Back to the start</a>.
          </p>
        ) : (
          <ErrorMessage error={playlist.error} />
        )}
      </>
    );
  }
  if (!playlist.data) return <Loading />;
  const p = playlist.data;
  const me = account.value;
  const owner = me?.kind === "user" && me.user.id === p.userId;
  // The listener's own like comes with the read (`viewer`, signed-in listeners only).
  const liked = p.viewer?.liked ?? false;
  // One press at a time: a second press before the answer would send the same change again.
  const like = () =>
    liking.run(async () => {
      const path = { params: { path: { id } } };
      const client = api("user");
      const state = unwrap(
        await (liked
          ? client.DELETE("/api/v1/playlists/{id}/like", path)
          : client.POST("/api/v1/playlists/{id}/like", path)),
      );
      playlist.set({
        ...p,
        viewer: { liked: state.liked },
        _count: { ...p._count, likes: state._count.likes },
      });
    });
  return (
    <>
      <header class="profile">
        <Cover src={p.cover} size={160} alt={`Cover of ${p.title}`} />
        <div>
          <p class="muted small">{p.isPublic ? "Public playlist" : "Private playlist"}</p>
          <PageTitle title={p.title}>{p.title}</PageTitle>
          {p.description && <p>{p.description}</p>}
          <p class="muted small">
            {owner ? "Your playlist" : "A listener's playlist"} · {plural(p._count.tracks, "track")}{" "}
            · {plural(p._count.likes, "like")}
          </p>
          <div class="row">
            <button
              type="button"
              class="primary"
              disabled={p.tracks.length === 0}
              onClick={() => void player.playQueue(p.tracks.map((t) => toQueueItem(t)))}
            >
              Play
            </button>
            {!owner && me?.kind === "user" && (
              <button type="button" aria-pressed={liked} aria-busy={liking.busy} onClick={like}>
                Like playlist
              </button>
            )}
          </div>
          <ErrorMessage error={liking.error} />
        </div>
      </header>
      {owner ? (
        <OwnTracks playlist={p} set={playlist.set} />
      ) : (
        <section aria-labelledby="playlist-tracks">
          <h2 id="playlist-tracks">Tracks</h2>
          <TrackList tracks={p.tracks} label={`Tracks of ${p.title}`} />
        </section>
      )}
      {owner && <EditPlaylist playlist={p} set={playlist.set} />}
    </>
  );
}

/**
 * The owner's track list: move and remove, shown at once. Writes go to the API one at a time,
 * in order; after one fails, the list is read again (else the last answer's is put back).
 * Keyboard focus stays on the moved track's button (a moved or removed row would drop it).
 */
function OwnTracks({ playlist, set }: { playlist: Playlist; set: (p: Playlist) => void }) {
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
              <button
                type="button"
                class="icon small"
                aria-label={`Move ${track.title} up`}
                data-key={`up ${track.id}`}
                disabled={i === 0}
                onClick={() => move(i, -1)}
              >
                <Icon name="up" size={16} />
              </button>
              <button
                type="button"
                class="icon small"
                aria-label={`Move ${track.title} down`}
                data-key={`down ${track.id}`}
                disabled={i === last}
                onClick={() => move(i, 1)}
              >
                <Icon name="down" size={16} />
              </button>
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

function EditPlaylist({ playlist, set }: { playlist: Playlist; set: (p: Playlist) => void }) {
  const { route } = useLocation();
  const client = api("user");
  const path = { params: { path: { id: playlist.id } } };
  const [saved, setSaved] = useState("");
  const coverInput = useRef<HTMLInputElement>(null);

  const save = async (data: FormData) => {
    setSaved("");
    const fields = playlistInput(data);
    const cover = data.get("cover");
    const file = cover instanceof File && cover.size > 0 ? cover : null;
    if (file && file.size > MAX_COVER_BYTES) throw new Error("The cover must be at most 5 MB.");
    // With a cover the same fields go as multipart/form-data (the browser sets the boundary).
    const multipart = () => {
      const form = new FormData();
      form.set("title", fields.title);
      form.set("description", fields.description);
      form.set("isPublic", String(fields.isPublic));
      if (file) form.set("cover", file);
      return form;
    };
    const answer = unwrap(
      await client.PUT("/api/v1/playlists/{id}", {
        ...path,
        body: fields,
        bodySerializer: file ? multipart : undefined,
      }),
    );
    set(answer);
    if (coverInput.current) coverInput.current.value = "";
    setSaved("Saved.");
  };

  const deleting = useAction();
  const remove = () => {
    if (!confirm(`Delete the playlist “${playlist.title}”? This cannot be undone.`)) return;
    return deleting.run(async () => {
      unwrap(await client.DELETE("/api/v1/playlists/{id}", path));
      route("/library");
    });
  };

  return (
    <section aria-labelledby="edit-playlist">
      <h2 id="edit-playlist">Edit playlist</h2>
      <Form submit="Save" label="Edit playlist" onSubmit={save}>
        <PlaylistFields titleLabel="Title" initial={playlist} />
        <div class="field">
          <label for="field-cover">Cover</label>
          <input
            ref={coverInput}
            id="field-cover"
            name="cover"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby="field-cover-hint"
          />
          <small id="field-cover-hint" class="muted">
            Optional: PNG, JPEG or WebP, at most 5 MB.
          </small>
        </div>
      </Form>
      <p role="status" class="ok">
        {saved}
      </p>
      <div class="row">
        <button type="button" class="danger" aria-busy={deleting.busy} onClick={remove}>
          Delete playlist
        </button>
      </div>
      <ErrorMessage error={deleting.error} />
    </section>
  );
}
