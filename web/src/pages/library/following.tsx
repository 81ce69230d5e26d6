// The artists a listener follows, each with a way to unfollow.
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { Cover, ErrorMessage, Loading, PageTitle, plural } from "../../ui/parts.tsx";
import { useResource } from "../../ui/resource.ts";
import { ListenerOnly, useFocusAt, useLatest } from "./shared.tsx";

export function Following() {
  return (
    <ListenerOnly title="Following">
      <FollowingPage />
    </ListenerOnly>
  );
}

function FollowingPage() {
  const client = api("user");
  const artists = useResource(
    async (signal) =>
      unwrap(
        await client.GET("/api/v1/artists/me/following", {
          params: { query: { limit: 100 } },
          signal,
        }),
      ),
    [],
  );
  const [status, setStatus] = useState("");
  const [error, setError] = useState<unknown>(null);
  const { box, focusAt } = useFocusAt("button");
  const list = useLatest(artists);
  const unfollow = async (id: string, name: string) => {
    setError(null);
    setStatus("");
    try {
      unwrap(await client.DELETE("/api/v1/artists/{id}/follow", { params: { path: { id } } }));
      const index = list.get().findIndex((a) => a.id === id);
      if (index < 0) return;
      focusAt(index);
      list.set(list.get().filter((a) => a.id !== id));
      setStatus(`You no longer follow ${name}.`);
    } catch (e) {
      setError(e);
    }
  };
  const shown = artists.data;
  return (
    <>
      <PageTitle title="Following">Following</PageTitle>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorMessage error={artists.error ?? error} />
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
                  onClick={() => unfollow(artist.id, artist.username)}
                >
                  Unfollow
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
