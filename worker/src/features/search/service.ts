import type { RequestDeps } from "../../request-deps.ts";
import { searchTerms } from "./matching.ts";
import { findAlbums, findArtists, findPlaylists, findTracks } from "./queries.ts";
import type { SearchInput, SearchResults, SearchType } from "./schema.ts";

const FINDERS = {
  tracks: findTracks,
  artists: findArtists,
  albums: findAlbums,
  playlists: findPlaylists,
} satisfies Record<SearchType, unknown>;

/**
 * Searches every requested type at once: one query per type, run concurrently (the pool gives
 * each its own connection). The result has exactly the requested keys.
 */
export async function search(
  ctx: Pick<RequestDeps, "db">,
  input: SearchInput,
): Promise<SearchResults> {
  const terms = searchTerms(input.q);
  const lists = await Promise.all(
    input.types.map((type) => FINDERS[type](ctx.db, terms, input.limit)),
  );
  return Object.fromEntries(input.types.map((type, i) => [type, lists[i]])) as SearchResults;
}
