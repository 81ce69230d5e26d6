// What a listener likes: tracks (they play from here), playlists and artists, newest like first,
// read 50 at a time.
import { api, unwrap } from "../../api.ts";
import { artistCard, type Card, Cards, playlistCard } from "../../ui/cards.tsx";
import { plural } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { likesSent } from "../../ui/likes.ts";
import { type Paged, PagedList, usePaged } from "../../ui/paged.tsx";
import { TrackList } from "../../ui/track-list.tsx";
import { ListenerOnly } from "./listener-only.tsx";

const LIKED_PAGE = 50;

export function Liked() {
  return (
    <ListenerOnly title="Liked">
      <LikedPage />
    </ListenerOnly>
  );
}

function LikedPage() {
  const client = api("user");
  const tracks = usePaged(
    // A heart pressed just before coming here: its like is in the list.
    (page, signal) =>
      likesSent()
        .then(() =>
          client.GET("/api/v1/tracks/me/liked", {
            params: { query: { page, limit: LIKED_PAGE } },
            signal,
          }),
        )
        .then(unwrap),
    LIKED_PAGE,
    (track) => track.id,
  );
  const playlists = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/playlists/me/liked", {
          params: { query: { page, limit: LIKED_PAGE } },
          signal,
        })
        .then(unwrap),
    LIKED_PAGE,
    (playlist) => playlist.id,
  );
  const artists = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/artists/me/liked", { params: { query: { page, limit: LIKED_PAGE } }, signal })
        .then(unwrap),
    LIKED_PAGE,
    (artist) => artist.id,
  );
  return (
    <>
      <PageTitle title="Liked">Liked</PageTitle>
      <section aria-labelledby="liked-tracks">
        <h2 id="liked-tracks">Liked tracks</h2>
        <PagedList list={tracks} focus="li button:first-of-type">
          {(rows) =>
            rows.length === 0 ? (
              <p class="muted">No liked tracks yet: press the heart of a track to keep it here.</p>
            ) : (
              <TrackList tracks={rows} label="Liked tracks" />
            )
          }
        </PagedList>
      </section>
      <Section
        id="liked-playlists"
        title="Playlists you like"
        empty="No liked playlists yet: press Like on a playlist to keep it here."
        list={playlists}
        card={(p) => playlistCard(p, plural(p._count.tracks, "track"))}
      />
      <Section
        id="liked-artists"
        title="Artists you like"
        empty="No liked artists yet: press Like on an artist's page to keep them here."
        list={artists}
        card={(a) => artistCard(a, plural(a._count.likes, "like"))}
      />
    </>
  );
}

function Section<T>({
  id,
  title,
  empty,
  list,
  card,
}: {
  id: string;
  title: string;
  empty: string;
  list: Paged<T>;
  card: (row: T) => Card;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <PagedList list={list} focus="a">
        {(rows) => <Cards label={title} empty={empty} items={rows.map(card)} />}
      </PagedList>
    </section>
  );
}
