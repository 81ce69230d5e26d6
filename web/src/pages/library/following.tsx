// The artists a listener follows, each with a way to unfollow.
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { useFocusAt } from "../../ui/focus.ts";
import { LoadMore, usePaged } from "../../ui/paged.tsx";
import { Cover, ErrorMessage, Loading, PageTitle, plural } from "../../ui/parts.tsx";
import { ListenerOnly } from "./shared.tsx";

export function Following() {
  return (
    <ListenerOnly title="Following">
      <FollowingPage />
    </ListenerOnly>
  );
}

const FOLLOWING_PAGE = 50;

function FollowingPage() {
  const client = api("user");
  const artists = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/artists/me/following", {
          params: { query: { page, limit: FOLLOWING_PAGE } },
          signal,
        })
        .then(unwrap),
    FOLLOWING_PAGE,
    (artist) => artist.id,
  );
  const [status, setStatus] = useState("");
  const [error, setError] = useState<unknown>(null);
  const { box, focusAt } = useFocusAt("button[data-unfollow]");
  // Unfollows may overlap (each removes its own row); reading more is one at a time.
  const unfollow = async (id: string, name: string) => {
    setError(null);
    setStatus("");
    try {
      await artists.remove(id, async () => {
        unwrap(await client.DELETE("/api/v1/artists/{id}/follow", { params: { path: { id } } }));
        const index = artists.latest().findIndex((a) => a.id === id);
        if (index >= 0) focusAt(index);
      });
      setStatus(`You no longer follow ${name}.`);
    } catch (e) {
      setError(e);
    }
  };
  const reading = useAction();
  const loadMore = () =>
    reading.run(async () => {
      const { shown, more } = await artists.loadMore();
      // The button goes with the last page: focus moves to the first artist it brought.
      if (!more) focusAt(shown);
    });
  const shown = artists.rows;
  return (
    <>
      <PageTitle title="Following">Following</PageTitle>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorMessage error={artists.error ?? error ?? reading.error} />
      {!shown ? (
        !artists.error && <Loading />
      ) : shown.length === 0 ? (
        <p class="muted">
          You follow no artists yet. <a href="/search">Find some</a>.
        </p>
      ) : (
        <div ref={box}>
          <ul class="cards" aria-label="Artists you follow">
            {shown.map((artist) => (
              <li key={artist.id} class="card">
                <a href={`/artists/${artist.id}`}>
                  <Cover src={artist.avatar} size={96} />
                  <span class="ellipsis">{artist.username}</span>
                </a>
                <span class="muted small">{plural(artist._count.followers, "follower")}</span>
                <button
                  type="button"
                  aria-label={`Unfollow ${artist.username}`}
                  data-unfollow
                  onClick={() => unfollow(artist.id, artist.username)}
                >
                  Unfollow
                </button>
              </li>
            ))}
          </ul>
          {artists.more && <LoadMore busy={reading.busy} onClick={loadMore} />}
        </div>
      )}
    </>
  );
}
