// An album: its READY tracks in album order and numbered, their running time, the artist's words
// about it; playable as a whole.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../api.ts";
import { player } from "../player/engine.ts";
import { isSignedInArtist } from "../session.ts";
import { Cover } from "../ui/cover.tsx";
import { formatTotal, plural, shownName } from "../ui/format.ts";
import { PageTitle } from "../ui/headings.tsx";
import { ErrorMessage, Loading } from "../ui/messages.tsx";
import { useResource } from "../ui/resource.ts";
import { ShareButton } from "../ui/share-button.tsx";
import { TrackList, toQueueItem } from "../ui/track-list.tsx";

/**
 * Another album's id (a link from one album to another, back and forward) is a new page: the router
 * keeps the component, so without the key the last album and its state would stay on screen.
 */
export function AlbumPage({ id }: { id: string }) {
  return <AlbumView key={id} id={id} />;
}

function AlbumView({ id }: { id: string }) {
  // An unlisted album's link carries its key (`?key=…`, ADR 0025).
  const key = useLocation().query.key;
  const album = useResource(
    async (signal) =>
      unwrap(
        await api().GET("/api/v1/albums/{id}", {
          params: { path: { id }, query: key ? { key } : {} },
          signal,
        }),
      ),
    [id, key],
  );
  if (album.error) return <ErrorMessage error={album.error} />;
  if (!album.data) return <Loading />;
  const a = album.data;
  return (
    <>
      <header class="profile">
        <Cover src={a.cover} size={128} alt={`Cover of ${a.title}`} />
        <div>
          <p class="muted small">Album{a.releasedAt ? ` · ${a.releasedAt}` : ""}</p>
          <PageTitle title={a.title}>{a.title}</PageTitle>
          <p>
            <a href={`/artists/${a.artistId}`}>{shownName(a.artist)}</a>
          </p>
          <p class="muted small">
            {plural(a.tracks.length, "track")} · {formatTotal(a.tracks.map((t) => t.duration))}
          </p>
          {a.description && <p class="description">{a.description}</p>}
          <div class="row">
            <button
              type="button"
              class="primary"
              disabled={a.tracks.length === 0}
              onClick={() => void player.playQueue(a.tracks.map((t) => toQueueItem(t)))}
            >
              Play album
            </button>
            <ShareButton
              kind="albums"
              id={a.id}
              title={a.title}
              owner={isSignedInArtist(a.artistId) ? "artist" : null}
            />
          </div>
        </div>
      </header>
      <TrackList
        tracks={a.tracks}
        label={`Tracks of ${a.title}`}
        numberOf={(_, i) => a.tracks[i]?.albumPosition ?? i + 1}
      />
    </>
  );
}
