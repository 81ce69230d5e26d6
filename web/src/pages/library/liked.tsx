// What a listener likes: playlists and artists, newest like first, read 50 at a time.
import { api, unwrap } from "../../api.ts";
import { artistCard, type Card, Cards, playlistCard } from "../../ui/cards.tsx";
import { plural } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { type Paged, PagedList, usePaged } from "../../ui/paged.tsx";
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
