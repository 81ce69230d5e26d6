// A playlist: anyone reads a public one and plays it; another signed-in listener likes it; its
// owner reorders or removes its tracks, edits it and deletes it (playlist/).
import { useLocation } from "preact-iso";
import { api, ProblemError, unwrap } from "../api.ts";
import { player } from "../player/engine.ts";
import { account } from "../session.ts";
import { useAction } from "../ui/action.ts";
import { Cover } from "../ui/cover.tsx";
import { plural } from "../ui/format.ts";
import { PageTitle } from "../ui/headings.tsx";
import { ErrorMessage, Loading } from "../ui/messages.tsx";
import { visibilityLabel } from "../ui/playlist-fields.tsx";
import { useResource } from "../ui/resource.ts";
import { ShareButton } from "../ui/share-button.tsx";
import { TrackList, toQueueItem } from "../ui/track-list.tsx";
import { EditPlaylist } from "./playlist/edit-playlist.tsx";
import { OwnTracks } from "./playlist/own-tracks.tsx";

export function PlaylistPage({ id }: { id: string }) {
  // Who is signed in decides what the page offers (and whose private playlist can be read); a
  // new id starts afresh (no like state or pending writes carried over).
  return account.value === undefined ? <Loading /> : <PlaylistView key={id} id={id} />;
}

function PlaylistView({ id }: { id: string }) {
  // An unlisted playlist's link carries its key (`?key=…`, ADR 0025).
  const key = useLocation().query.key;
  const playlist = useResource(
    async (signal) =>
      unwrap(
        await api().GET("/api/v1/playlists/{id}", {
          params: { path: { id }, query: key ? { key } : {} },
          signal,
        }),
      ),
    [id, key],
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
          <p class="muted small">{visibilityLabel(p.visibility)} playlist</p>
          <PageTitle title={p.title}>{p.title}</PageTitle>
          {p.description && <p>{p.description}</p>}
          <p class="muted small">
            {/* A listener is named by their display name alone, never by a username (it may
                come from their email address): without one, no name. */}
            {owner
              ? "Your playlist"
              : p.owner.displayName
                ? `By ${p.owner.displayName}`
                : "A listener's playlist"}{" "}
            · {plural(p._count.tracks, "track")} · {plural(p._count.likes, "like")}
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
            <ShareButton kind="playlists" id={p.id} title={p.title} owner={owner ? "user" : null} />
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
