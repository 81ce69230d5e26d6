// A track: details, play, add to the queue, and (signed-in listener) add to one of their playlists.

import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, unwrap } from "../api.ts";
import { player } from "../player/engine.ts";
import { account, isSignedInArtist } from "../session.ts";
import { useAction } from "../ui/action.ts";
import { Cover } from "../ui/cover.tsx";
import { formatTime, shownName } from "../ui/format.ts";
import { PageTitle } from "../ui/headings.tsx";
import { LikeButton } from "../ui/like-button.tsx";
import { ErrorMessage, Loading } from "../ui/messages.tsx";
import { formatPlays } from "../ui/plays.tsx";
import { useResource } from "../ui/resource.ts";
import { ShareButton } from "../ui/share-button.tsx";
import { TrackList, toQueueItem } from "../ui/track-list.tsx";

/**
 * Another track's id (a link from one track to another, back and forward) is a new page: the router
 * keeps the component, so without the key the last track and its state would stay on screen.
 */
export function TrackPage({ id }: { id: string }) {
  return <TrackView key={id} id={id} />;
}

/** The track; `key`, from an unlisted track's link (`?key=…`), opens it (ADR 0025). */
const useTrack = (id: string, key: string | undefined) =>
  useResource(
    async (signal) =>
      unwrap(
        await api().GET("/api/v1/tracks/{id}", {
          params: { path: { id }, query: key ? { key } : {} },
          signal,
        }),
      ),
    [id, key],
  );

function TrackView({ id }: { id: string }) {
  const key = useLocation().query.key;
  const track = useTrack(id, key);
  if (track.error) return <ErrorMessage error={track.error} />;
  if (!track.data) return <Loading />;
  const t = track.data;
  const gain = t.loudness?.gainDb;
  return (
    <>
      <TrackHeader t={t} gain={gain} />
      {/* An unlisted track has no related list: its listeners are not shown. */}
      {!("stream" in t) && <MoreLikeThis id={t.id} />}
    </>
  );
}

function TrackHeader({
  t,
  gain,
}: {
  t: NonNullable<ReturnType<typeof useTrack>["data"]>;
  gain: number | null | undefined;
}) {
  // A track read with its link's key plays through its signed URLs (ADR 0026).
  const item = () => ({
    ...toQueueItem(t),
    ...("stream" in t ? { stream: t.stream.master } : {}),
  });
  return (
    <header class="profile">
      <Cover src={t.cover} size={160} alt={`Cover of ${t.title}`} />
      <div>
        <p class="muted small">
          Track · {formatTime(t.duration)} · {formatPlays(t.plays)}
        </p>
        <PageTitle title={t.title}>{t.title}</PageTitle>
        <p>
          <a href={`/artists/${t.artistId}`}>{shownName(t.artist)}</a>
          {t.album && (
            <>
              {" · "}
              <a href={`/albums/${t.album.id}`}>{t.album.title}</a>
            </>
          )}
        </p>
        {t.loudness && (
          <p class="muted small">
            Loudness {t.loudness.integratedLufs.toFixed(1)} LUFS
            {gain != null && ` · normalised by ${gain > 0 ? "+" : ""}${gain.toFixed(1)} dB`}
          </p>
        )}
        <div class="row">
          <button type="button" class="primary" onClick={() => void player.playQueue([item()])}>
            Play
          </button>
          <button type="button" onClick={() => player.enqueue(item())}>
            Add to queue
          </button>
          <LikeButton track={t} labelled />
          <ShareButton
            kind="tracks"
            id={t.id}
            title={t.title}
            owner={isSignedInArtist(t.artistId) ? "artist" : null}
          />
        </div>
        {account.value?.kind === "user" && <AddToPlaylist trackId={t.id} />}
      </div>
    </header>
  );
}

/** What this track's listeners also played (public, the same for everyone); nothing when none. */
function MoreLikeThis({ id }: { id: string }) {
  const related = useResource(
    async (signal) =>
      unwrap(
        await api().GET("/api/v1/tracks/{id}/related", {
          params: { path: { id }, query: { limit: 10 } },
          signal,
        }),
      ),
    [id],
  );
  if (!related.data || related.data.length === 0) return null;
  return (
    <section aria-labelledby="more-like-this">
      <h2 id="more-like-this">More like this</h2>
      <p class="muted small">What this track's listeners also played.</p>
      <TrackList tracks={related.data} label="More like this" />
    </section>
  );
}

function AddToPlaylist({ trackId }: { trackId: string }) {
  const client = api("user");
  // The 100 most recently changed (the most the API answers at once): the choice of a select.
  const playlists = useResource(
    async (signal) =>
      unwrap(
        await client.GET("/api/v1/playlists/me", { params: { query: { limit: 100 } }, signal }),
      ),
    [],
  );
  const [done, setDone] = useState<string | null>(null);
  // One add at a time: a second press before the answer would add the track twice.
  const adding = useAction();
  if (!playlists.data) return <ErrorMessage error={playlists.error} />;
  if (playlists.data.length === 0) {
    return (
      <p class="muted small">
        <a href="/library">Create a playlist</a> to add this track to it.
      </p>
    );
  }
  return (
    <form
      class="row"
      aria-label="Add to a playlist"
      onSubmit={async (event) => {
        event.preventDefault();
        const id = String(new FormData(event.currentTarget).get("playlist"));
        void adding.run(async () => {
          setDone(null);
          const playlist = unwrap(
            await client.POST("/api/v1/playlists/{id}/tracks", {
              params: { path: { id } },
              body: { trackIds: [trackId] },
            }),
          );
          setDone(`Added to ${playlist.title}.`);
        });
      }}
    >
      <label for="playlist-choice">Playlist</label>
      <select id="playlist-choice" name="playlist">
        {playlists.data.map((p) => (
          <option key={p.id} value={p.id}>
            {p.title}
          </option>
        ))}
      </select>
      <button type="submit" aria-busy={adding.busy}>
        Add to playlist
      </button>
      {done && (
        <span role="status" class="muted">
          {done}
        </span>
      )}
      <ErrorMessage error={adding.error} />
    </form>
  );
}
