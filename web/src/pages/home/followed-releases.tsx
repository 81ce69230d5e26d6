// A signed-in listener's feed on the home page: what the artists they follow released, newest
// first, with how much came out since their last visit (remembered in this browser).
import type { components } from "@edge-music/client";
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { albumCard, Cards } from "../../ui/cards.tsx";
import { plural, shownName } from "../../ui/format.ts";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";
import { TrackList } from "../../ui/track-list.tsx";

type FeedItem = components["schemas"]["FeedItem"];

const SEEN_KEY = "edge-music.feed-seen";
const PAGE = 12;

/** When this browser last showed the feed (an ISO time), and from now on: this visit. */
function lastVisit(): string | undefined {
  let seen: string | undefined;
  try {
    const stored = localStorage.getItem(SEEN_KEY);
    if (stored && !Number.isNaN(Date.parse(stored))) seen = new Date(stored).toISOString();
    localStorage.setItem(SEEN_KEY, new Date().toISOString());
  } catch {
    // Storage refused (private mode): every visit is a first one.
  }
  return seen;
}

export function FollowedReleases() {
  const [since] = useState(lastVisit);
  const [more, setMore] = useState<{ items: FeedItem[]; cursor: string | null } | null>(null);
  const reading = useAction();
  const first = useResource(
    (signal) =>
      api("user")
        .GET("/api/v1/users/me/feed", {
          params: { query: { limit: PAGE, ...(since ? { since } : {}) } },
          signal,
        })
        .then(unwrap),
    [],
  );
  if (first.loading && !first.data) return <Loading />;
  if (!first.data) return <ErrorMessage error={first.error} />;
  const items = [...first.data.items, ...(more?.items ?? [])];
  const cursor = more ? more.cursor : first.data.nextCursor;
  const tracks = items.flatMap((item) => (item.type === "track" ? [item.track] : []));
  const albums = items.flatMap((item) => (item.type === "album" ? [item.album] : []));
  const fresh = first.data.newSince;
  const loadMore = () =>
    reading.run(async () => {
      if (!cursor) return;
      const page = unwrap(
        await api("user").GET("/api/v1/users/me/feed", {
          params: { query: { limit: PAGE, cursor } },
        }),
      );
      setMore({ items: [...(more?.items ?? []), ...page.items], cursor: page.nextCursor });
    });
  return (
    <section aria-labelledby="followed-releases">
      <h2 id="followed-releases">From artists you follow</h2>
      {fresh !== null && fresh !== undefined && (
        <p class="muted" data-new-since>
          {fresh === 0
            ? "Nothing new since your last visit."
            : `${plural(fresh, "new release")} since your last visit.`}
        </p>
      )}
      {items.length === 0 ? (
        <p class="muted">
          Nothing yet: follow artists to hear of their releases here.{" "}
          <a href="/search">Find some</a>.
        </p>
      ) : (
        <>
          {tracks.length > 0 && <TrackList tracks={tracks} label="New from artists you follow" />}
          {albums.length > 0 && (
            <Cards
              label="New albums from artists you follow"
              items={albums.map((a) => albumCard(a, shownName(a.artist)))}
            />
          )}
        </>
      )}
      {cursor && (
        <button type="button" aria-busy={reading.busy} onClick={loadMore}>
          More from artists you follow
        </button>
      )}
      <ErrorMessage error={reading.error} />
    </section>
  );
}
