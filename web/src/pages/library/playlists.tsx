// A listener's playlists, and a new one.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../../api.ts";
import { Cover, ErrorMessage, Form, Loading, PageTitle, plural } from "../../ui/parts.tsx";
import { useResource } from "../../ui/resource.ts";
import { PlaylistFields, playlistInput } from "../playlist.tsx";
import { ListenerOnly } from "./shared.tsx";

export function Library() {
  return (
    <ListenerOnly title="Your library">
      <LibraryPage />
    </ListenerOnly>
  );
}

function LibraryPage() {
  const { route } = useLocation();
  const client = api("user");
  const playlists = useResource(
    async (signal) =>
      unwrap(
        await client.GET("/api/v1/playlists/me", { params: { query: { limit: 100 } }, signal }),
      ),
    [],
  );
  const list = playlists.data;
  return (
    <>
      <PageTitle title="Your library">Your library</PageTitle>
      <section aria-labelledby="your-playlists">
        <h2 id="your-playlists">Your playlists</h2>
        <ErrorMessage error={playlists.error} />
        {!list ? (
          !playlists.error && <Loading />
        ) : list.length === 0 ? (
          <p class="muted">No playlists yet: create your first one below.</p>
        ) : (
          <ul class="cards">
            {list.map((p) => (
              <li key={p.id} class="card">
                <a href={`/playlists/${p.id}`}>
                  <Cover src={p.cover ?? p.tracks[0]?.cover} size={96} />
                  <span class="ellipsis">{p.title}</span>
                </a>
                <span class="muted small">
                  {plural(p._count.tracks, "track")} · {p.isPublic ? "Public" : "Private"}
                </span>
              </li>
            ))}
          </ul>
        )}
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
