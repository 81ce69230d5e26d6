// Search results for the URL's ?q=, which the header's search box sets as you type (after a short
// pause). A new query cancels the older request, so results never arrive out of order; the URL
// makes a search shareable.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type components, unwrap } from "../api.ts";
import { useAction } from "../ui/action.ts";
import { albumCard, artistCard, Cards, playlistCard } from "../ui/cards.tsx";
import { useFocusAt } from "../ui/focus.ts";
import { plural, shownName } from "../ui/format.ts";
import { PageTitle } from "../ui/headings.tsx";
import { ErrorMessage } from "../ui/messages.tsx";
import { useResource } from "../ui/resource.ts";
import { TrackList } from "../ui/track-list.tsx";

/** Results per type at first; "More" reads that type again, up to the API's most. */
const FIRST = 10;
const MOST = 50;

type Found = components["schemas"]["SearchResults"];
type Type = "tracks" | "artists" | "albums" | "playlists";

export function Search() {
  const query = (useLocation().query.q ?? "").trim();
  // The answer carries its query: while a newer one is read, the older answer stays on screen,
  // and what is drawn (and said) must be of the query it answers.
  const results = useResource(
    async (signal) =>
      query
        ? {
            q: query,
            found: unwrap(
              await api().GET("/api/v1/search", {
                params: { query: { q: query, limit: FIRST } },
                signal,
              }),
            ),
          }
        : null,
    [query],
  );
  const answered = results.data?.q ?? "";
  const data = results.data?.found;
  const empty =
    data &&
    !data.tracks?.length &&
    !data.artists?.length &&
    !data.albums?.length &&
    !data.playlists?.length;
  // What a screen reader hears as results arrive: one short line, not every result again.
  const summary =
    !data || results.loading
      ? ""
      : empty
        ? `Nothing found for “${answered}”.`
        : `Found ${(
            [
              [data.tracks?.length ?? 0, "track"],
              [data.artists?.length ?? 0, "artist"],
              [data.albums?.length ?? 0, "album"],
              [data.playlists?.length ?? 0, "playlist"],
            ] as const
          )
            .filter(([n]) => n > 0)
            .map(([n, word]) => plural(n, word))
            .join(", ")} for “${answered}”.`;

  return (
    <>
      <PageTitle title="Search">Search</PageTitle>
      {!query && <p class="muted">Type in the search box above: results appear as you type.</p>}
      <ErrorMessage error={results.error} />
      <p class="visually-hidden" role="status">
        {summary}
      </p>
      <div aria-busy={results.loading}>
        {empty && <p class="muted">Nothing found for “{answered}”.</p>}
        {data && (
          <>
            <FoundSection
              key={`tracks ${answered}`}
              query={answered}
              type="tracks"
              title="Tracks"
              first={data.tracks}
              focus="li button:first-of-type"
              render={(tracks) => <TrackList tracks={tracks} label="Tracks found" />}
            />
            <FoundSection
              key={`artists ${answered}`}
              query={answered}
              type="artists"
              title="Artists"
              first={data.artists}
              focus="a"
              render={(artists) => (
                <Cards
                  items={artists.map((a) => artistCard(a, `@${a.username}`))}
                  label="Artists found"
                />
              )}
            />
            <FoundSection
              key={`albums ${answered}`}
              query={answered}
              type="albums"
              title="Albums"
              first={data.albums}
              focus="a"
              render={(albums) => (
                <Cards
                  items={albums.map((a) => albumCard(a, shownName(a.artist)))}
                  label="Albums found"
                />
              )}
            />
            <FoundSection
              key={`playlists ${answered}`}
              query={answered}
              type="playlists"
              title="Playlists"
              first={data.playlists}
              focus="a"
              render={(playlists) => (
                <Cards items={playlists.map((p) => playlistCard(p))} label="Playlists found" />
              )}
            />
          </>
        )}
      </div>
    </>
  );
}

/**
 * The results of one type; when the first read filled its share, "More" reads that type alone
 * again with the API's most (search has no pages: ranks are computed per query).
 */
function FoundSection<K extends Type>({
  query,
  type,
  title,
  first,
  focus,
  render,
}: {
  query: string;
  type: K;
  title: string;
  first: Found[K];
  focus: string;
  render: (items: NonNullable<Found[K]>) => ComponentChildren;
}) {
  const [items, setItems] = useState(first ?? []);
  const [all, setAll] = useState(false);
  const reading = useAction();
  const { box, focusAt } = useFocusAt<HTMLElement>(focus);
  if (items.length === 0) return null;
  const more = () =>
    reading.run(async () => {
      const found = unwrap(
        await api().GET("/api/v1/search", {
          params: { query: { q: query, "types[]": [type], limit: MOST } },
        }),
      );
      const next = (found[type] ?? []) as NonNullable<Found[K]>;
      // The button goes: the focus moves to the first result it brought.
      focusAt(items.length);
      setItems(next);
      setAll(true);
    });
  const id = `found-${type}`;
  return (
    <section aria-labelledby={id} ref={box}>
      <h2 id={id}>{title}</h2>
      {render(items as NonNullable<Found[K]>)}
      {!all && items.length >= FIRST && (
        <div class="row">
          <button type="button" aria-busy={reading.busy} onClick={more}>
            More {title.toLowerCase()}
          </button>
        </div>
      )}
      <ErrorMessage error={reading.error} />
    </section>
  );
}
