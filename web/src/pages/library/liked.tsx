// What a listener likes: playlists and artists, newest like first, read 50 at a time.
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { artistCard, type Card, Cards, playlistCard } from "../../ui/cards.tsx";
import { useFocusAt } from "../../ui/focus.ts";
import { LoadMore, usePaged } from "../../ui/paged.tsx";
import { ErrorMessage, Loading, PageTitle, plural } from "../../ui/parts.tsx";
import { ListenerOnly } from "./shared.tsx";

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
  list: ReturnType<typeof usePaged<T>>;
  card: (row: T) => Card;
}) {
  const { box, focusAt } = useFocusAt("a");
  const reading = useAction();
  const loadMore = () =>
    reading.run(async () => {
      const { shown, more } = await list.loadMore();
      // The button goes with the last page: focus moves to the first card it brought.
      if (!more) focusAt(shown);
    });
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorMessage error={list.error ?? reading.error} />
      {!list.rows ? (
        !list.error && <Loading />
      ) : (
        <div ref={box}>
          <Cards label={title} empty={empty} items={list.rows.map(card)} />
          {list.more && <LoadMore busy={reading.busy} onClick={loadMore} />}
        </div>
      )}
    </section>
  );
}
