// Search results for the URL's ?q=, which the header's search box sets as you type (after a short
// pause). A new query cancels the older request, so results never arrive out of order; the URL
// makes a search shareable.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../api.ts";
import { albumCard, artistCard, Cards, playlistCard } from "../ui/cards.tsx";
import { ErrorMessage, PageTitle } from "../ui/parts.tsx";
import { useResource } from "../ui/resource.ts";
import { TrackList } from "../ui/track-list.tsx";

export function Search() {
  const query = (useLocation().query.q ?? "").trim();
  const results = useResource(
    async (signal) =>
      query
        ? unwrap(
            await api().GET("/api/v1/search", {
              params: { query: { q: query, limit: 10 } },
              signal,
            }),
          )
        : null,
    [query],
  );
  const data = results.data;
  const empty =
    data &&
    !data.tracks?.length &&
    !data.artists?.length &&
    !data.albums?.length &&
    !data.playlists?.length;

  return (
    <>
      <PageTitle title="Search">Search</PageTitle>
      {!query && <p class="muted">Type in the search box above: results appear as you type.</p>}
      <ErrorMessage error={results.error} />
      <div aria-live="polite" aria-busy={results.loading}>
        {empty && <p class="muted">Nothing found for “{query}”.</p>}
        {data?.tracks && data.tracks.length > 0 && (
          <section aria-labelledby="found-tracks">
            <h2 id="found-tracks">Tracks</h2>
            <TrackList tracks={data.tracks} label="Tracks found" />
          </section>
        )}
        {data?.artists && data.artists.length > 0 && (
          <section aria-labelledby="found-artists">
            <h2 id="found-artists">Artists</h2>
            <Cards items={data.artists.map((a) => artistCard(a))} label="Artists found" />
          </section>
        )}
        {data?.albums && data.albums.length > 0 && (
          <section aria-labelledby="found-albums">
            <h2 id="found-albums">Albums</h2>
            <Cards items={data.albums.map((a) => albumCard(a))} label="Albums found" />
          </section>
        )}
        {data?.playlists && data.playlists.length > 0 && (
          <section aria-labelledby="found-playlists">
            <h2 id="found-playlists">Playlists</h2>
            <Cards items={data.playlists.map((p) => playlistCard(p))} label="Playlists found" />
          </section>
        )}
      </div>
    </>
  );
}
