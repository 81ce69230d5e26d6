// What is played and liked most now, today or this week (public, the same for everyone; recomputed
// every minute by the API). The window is in the address (`?window=week`), so a link keeps it.
import { useLocation } from "preact-iso";
import { api, unwrap } from "../api.ts";
import { PageTitle } from "../ui/headings.tsx";
import { ErrorMessage, Loading } from "../ui/messages.tsx";
import { useResource } from "../ui/resource.ts";
import { TrackList } from "../ui/track-list.tsx";

type Window = "day" | "week";

const WINDOWS: Array<[Window, string]> = [
  ["day", "Today"],
  ["week", "This week"],
];

export function Trending() {
  const location = useLocation();
  const window: Window = location.query.window === "week" ? "week" : "day";
  const trending = useResource(
    async (signal) =>
      unwrap(
        await api().GET("/api/v1/tracks/trending", {
          params: { query: { window, limit: 50 } },
          signal,
        }),
      ),
    [window],
  );
  const label = window === "day" ? "Trending today" : "Trending this week";
  return (
    <>
      <PageTitle title="Trending">Trending</PageTitle>
      <fieldset class="bare choice">
        <legend class="visually-hidden">Trending over</legend>
        {WINDOWS.map(([value, text]) => (
          <label key={value} class={value === window ? "chip chosen" : "chip"}>
            <input
              type="radio"
              name="window"
              value={value}
              checked={value === window}
              onChange={() =>
                location.route(value === "day" ? "/trending" : "/trending?window=week", true)
              }
            />
            {text}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={trending.error} />
      {trending.loading && !trending.data && <Loading />}
      {trending.data &&
        (trending.data.length === 0 ? (
          <p class="muted">
            Nothing is trending {window === "day" ? "today" : "this week"} yet: tracks appear here
            as people play and like them.
          </p>
        ) : (
          <TrackList tracks={trending.data} label={label} />
        ))}
    </>
  );
}
