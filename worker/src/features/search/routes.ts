import { createRoute } from "@hono/zod-openapi";
import { EDGE, edgeCached } from "../../middleware/edge-cache.ts";
import { problemResponses } from "../../openapi/problem-responses.ts";
import { json, newRouter } from "../../openapi/router.ts";
import { publicRoute } from "../../security/guard.ts";
import {
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  SearchQuery,
  SearchResultsDto,
  searchInput,
} from "./schema.ts";
import { search } from "./service.ts";

const description = [
  "Searches the catalogue; no sign-in needed. The response has one key per requested type (`tracks`, `artists`, `albums`, `playlists`) and no other, each an array of at most `limit` items ordered by `rank`, highest first. An array may be empty; nothing found is still a 200.",
  "",
  "**Parameters**",
  `- \`q\` (required): 1–${MAX_QUERY_LENGTH} characters (Unicode code points) after trimming; runs of spaces inside count as one space. A NUL character, an empty or spaces-only \`q\`, a longer one, or \`q\` given twice is a 400. Any other text is valid and never an error: the substring match takes every character literally (\`%\`, \`_\`, backslash, quotes); the full-text match reads web-search syntax (\`"quoted phrases"\`, \`or\`, \`-word\`; Postgres \`websearch_to_tsquery\`), but only for its own part: the substring and typo matches may still find a row it excludes; and a \`q\` of English stop words only (\`the\`) matches by substring alone.`,
  "- `types[]` (repeatable) or `types` (repeatable, or comma-separated): which types to search, default all. An unknown, empty or differently cased value is a 400; repeated values count once; the response's keys follow the order tracks, artists, albums, playlists whatever the request's order.",
  `- \`limit\`: results per type, 1–${MAX_SEARCH_LIMIT}, default 10 (the spec leaves the maximum open; ${MAX_SEARCH_LIMIT} is ours). Anything else is a 400. Unknown parameters are ignored.`,
  "",
  "**What matches**",
  "- Tracks, albums and playlists by title; artists by username. Only READY public tracks, public albums and public playlists (unlisted and private items are never found, whoever searches: ADR 0025); every artist.",
  "- A row matches when any of these holds, all blind to case and diacritics (`beyonce` finds “Beyoncé”, `dvorak` “Dvořák”):",
  "  - English full text, with stemming (`loving` finds “Love”) and English stop words ignored;",
  "  - substring anywhere (`ove` finds “Love”; scripts without spaces: `東京` finds “東京フラッシュ”);",
  "  - typo tolerance when `q` has a word of 4+ letters or digits: the title holds, for every such word of `q`, a word close in spelling to it: one edit away (a letter missing, extra or wrong) for words of 4–5 letters, two for longer ones, among the words of trigram similarity ≥ 0.3, found by its English stem (`metalica` finds “Metallica”, `sernade` finds “Serenade”, `midnigt train` finds “Midnight Train”; a wrong letter in a 4-letter word leaves too few trigrams in common to be found). A word of the title that is an English stop word (`their`) is not found by a misspelling.",
  "",
  "**Ranking** (`rank`, highest first; a number comparable only within one response)",
  "- 3: the whole title/username equals `q` (ignoring case and diacritics);",
  "- 2 + 0.9 × full-text rank (`ts_rank`, shorter titles first) for other full-text matches;",
  "- 1 + 0.9 × the share of the title that `q` covers, for titles starting with `q` (shorter titles first);",
  "- 0.9 × word similarity for substrings inside words; for typo-tolerant matches, 0.9 × the mean similarity of the close words × (0.75 + 0.25 × the share of the title they cover): always below exact, full-text and prefix matches.",
  "- Equal ranks: more followers first for artists, more likes first for playlists; then newest first (creation time) for every type, then id.",
].join("\n");

export const searchRoute = createRoute({
  tags: ["Search"],
  method: "get",
  path: "/",
  operationId: "searchCatalogue",
  summary: "Search tracks, artists, albums and playlists",
  ...edgeCached(publicRoute(), EDGE.search, description),
  request: { query: SearchQuery },
  responses: {
    200: json(SearchResultsDto, "Results per requested type."),
    ...problemResponses(400),
  },
});

/** /api/v1/search */
export const searchRoutes = newRouter().openapi(searchRoute, async (c) => {
  const results = await search(c.var.deps, searchInput(c.req.valid("query")));
  return c.json(results, 200);
});
