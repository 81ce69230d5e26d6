import type { RequestDeps } from "../../request-deps.ts";
import { searchTerms } from "./matching.ts";
import { SEARCHABLE, searchRows, searchStatement } from "./queries.ts";
import type { SearchInput, SearchResults } from "./schema.ts";

/**
 * Searches every requested type in one round trip: one statement per type, sent together as one
 * batch. The result has exactly the requested keys.
 */
export async function search(
  ctx: Pick<RequestDeps, "db">,
  input: SearchInput,
): Promise<SearchResults> {
  const terms = searchTerms(input.q);
  const [first, ...rest] = input.types.map((type) =>
    ctx.db.execute(searchStatement(SEARCHABLE[type], terms, input.limit)),
  );
  if (!first) return {} as SearchResults;
  const results = await ctx.db.batch([first, ...rest]);
  return Object.fromEntries(
    input.types.map((type, i) => [type, searchRows(SEARCHABLE[type], results[i])]),
  ) as SearchResults;
}
