// The artists a listener follows, each with a way to unfollow.
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { Cover } from "../../ui/cover.tsx";
import { plural } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage } from "../../ui/messages.tsx";
import { PagedList, usePaged } from "../../ui/paged.tsx";
import { ListenerOnly } from "./listener-only.tsx";

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
  // Unfollows may overlap (each removes its own row); the focus goes to the next row's button.
  const unfollow = async (id: string, name: string, focusAt: (index: number) => void) => {
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
  return (
    <>
      <PageTitle title="Following">Following</PageTitle>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorMessage error={error} />
      <PagedList list={artists} focus="button[data-unfollow]">
        {(shown, focusAt) =>
          shown.length === 0 ? (
            <p class="muted">
              You follow no artists yet. <a href="/search">Find some</a>.
            </p>
          ) : (
            <ul class="cards" aria-label="Artists you follow">
              {shown.map((artist) => {
                const name = artist.displayName ?? artist.username;
                return (
                  <li key={artist.id} class="card">
                    <a href={`/artists/${artist.id}`}>
                      <Cover src={artist.avatar} size={96} />
                      <span class="ellipsis">{name}</span>
                    </a>
                    <span class="muted small">{plural(artist._count.followers, "follower")}</span>
                    <button
                      type="button"
                      aria-label={`Unfollow ${name}`}
                      data-unfollow
                      onClick={() => unfollow(artist.id, name, focusAt)}
                    >
                      Unfollow
                    </button>
                  </li>
                );
              })}
            </ul>
          )
        }
      </PagedList>
    </>
  );
}
