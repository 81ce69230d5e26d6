// A listener's playlists, and a new one.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../../api.ts";
import { Cover } from "../../ui/cover.tsx";
import { Form } from "../../ui/form.tsx";
import { plural } from "../../ui/format.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { PagedList, usePaged } from "../../ui/paged.tsx";
import { PlaylistFields, playlistInput, visibilityLabel } from "../../ui/playlist-fields.tsx";
import { ListenerOnly } from "./listener-only.tsx";

export function Library() {
  return (
    <ListenerOnly title="Your library">
      <LibraryPage />
    </ListenerOnly>
  );
}

const LIBRARY_PAGE = 50;

function LibraryPage() {
  const { route } = useLocation();
  const client = api("user");
  const playlists = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/playlists/me", { params: { query: { page, limit: LIBRARY_PAGE } }, signal })
        .then(unwrap),
    LIBRARY_PAGE,
    (playlist) => playlist.id,
  );
  return (
    <>
      <PageTitle title="Your library">Your library</PageTitle>
      <section aria-labelledby="your-playlists">
        <h2 id="your-playlists">Your playlists</h2>
        <PagedList list={playlists} focus="a">
          {(list) =>
            list.length === 0 ? (
              <p class="muted">No playlists yet: create your first one below.</p>
            ) : (
              <ul class="cards" aria-label="Your playlists">
                {list.map((p) => (
                  <li key={p.id} class="card">
                    <a href={`/playlists/${p.id}`}>
                      <Cover src={p.cover ?? p.tracks[0]?.cover} size={96} />
                      <span class="ellipsis">{p.title}</span>
                    </a>
                    <span class="muted small">
                      {plural(p._count.tracks, "track")} · {visibilityLabel(p.visibility)}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </PagedList>
      </section>
      <section aria-labelledby="new-playlist">
        <h2 id="new-playlist">New playlist</h2>
        <Form
          submit="Create playlist"
          label="New playlist"
          onSubmit={async (data) => {
            const created = unwrap(
              await client.POST("/api/v1/playlists", { body: playlistInput(data) }),
            );
            route(`/playlists/${created.id}`);
          }}
        >
          <PlaylistFields titleLabel="Playlist title" />
        </Form>
      </section>
    </>
  );
}
