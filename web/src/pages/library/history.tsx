// What a listener played lately: replay, remove one, clear all, read further back.
import { useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { useFocusAt } from "../../ui/focus.ts";
import { PageTitle } from "../../ui/headings.tsx";
import { Icon } from "../../ui/icons.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { LoadMore, usePaged } from "../../ui/paged.tsx";
import { TrackList } from "../../ui/track-list.tsx";
import { ListenerOnly } from "./listener-only.tsx";

type HistoryEntry = components["schemas"]["HistoryEntry"];

const HISTORY_PAGE = 20;

export function History() {
  return (
    <ListenerOnly title="History">
      <HistoryPage />
    </ListenerOnly>
  );
}

// In the page's language (English), shown short ("3h ago") and read in full ("3 hours ago").
const relative = {
  narrow: new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "narrow" }),
  long: new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "long" }),
};
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** How long ago: "5m ago", "yesterday" (narrow); "5 minutes ago" (long). */
function ago(iso: string, style: keyof typeof relative): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ["second", 1];
  return relative[style].format(Math.round(seconds / size), unit);
}

function HistoryPage() {
  const client = api("user");
  // Each track once, at its first (newest) place.
  const history = usePaged(
    (page, signal) =>
      client
        .GET("/api/v1/history", { params: { query: { page, limit: HISTORY_PAGE } }, signal })
        .then(unwrap),
    HISTORY_PAGE,
    (entry) => entry.trackId,
  );
  const [status, setStatus] = useState("");
  const { box, focusAt } = useFocusAt("button[data-remove]");
  const entries = history.rows ?? [];

  // One write or read at a time. Buttons are not disabled meanwhile: a disabled button would
  // drop the keyboard focus.
  const action = useAction();
  const { busy, error } = action;
  const run = (write: () => Promise<void>) =>
    action.run(async () => {
      setStatus("");
      await write();
    });

  const loadMore = () =>
    run(async () => {
      const { shown, more } = await history.loadMore();
      // The button goes with the last page: focus moves to the first entry it brought.
      if (!more) focusAt(shown);
    });

  const remove = (entry: HistoryEntry) =>
    run(async () => {
      await history.remove(entry.trackId, async () => {
        unwrap(
          await client.DELETE("/api/v1/history/tracks/{trackId}", {
            params: { path: { trackId: entry.trackId } },
          }),
        );
        const index = history.latest().findIndex((e) => e.trackId === entry.trackId);
        if (index >= 0) focusAt(index);
      });
      setStatus(`Removed ${entry.track.title} from history.`);
    });

  const clear = () => {
    if (!confirm("Clear your whole listening history? This cannot be undone.")) return;
    return run(async () => {
      unwrap(await client.DELETE("/api/v1/history"));
      focusAt(0);
      history.clear();
      setStatus("Your history is cleared.");
    });
  };

  return (
    <>
      <PageTitle title="History">History</PageTitle>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorMessage error={history.error ?? error} />
      {!history.rows ? (
        !history.error && <Loading />
      ) : entries.length === 0 ? (
        <p class="muted">Nothing yet: what you play appears here.</p>
      ) : (
        <div ref={box}>
          <div class="row">
            <button type="button" class="danger" onClick={clear}>
              Clear history
            </button>
          </div>
          <TrackList
            tracks={entries.map((e) => e.track)}
            label="Recently played"
            actions={(track, i) => {
              const entry = entries[i];
              return (
                entry && (
                  // When above its button: the row keeps room for the title on a phone.
                  <span class="stack center">
                    <time
                      class="muted small"
                      dateTime={entry.listenedAt}
                      title={new Date(entry.listenedAt).toLocaleString()}
                    >
                      <span aria-hidden="true">{ago(entry.listenedAt, "narrow")}</span>
                      <span class="visually-hidden">{`listened ${ago(entry.listenedAt, "long")}`}</span>
                    </time>
                    <button
                      type="button"
                      class="icon small"
                      aria-label={`Remove ${track.title} from history`}
                      data-remove
                      onClick={() => remove(entry)}
                    >
                      <Icon name="close" size={16} />
                    </button>
                  </span>
                )
              );
            }}
          />
          {history.more && <LoadMore busy={busy} onClick={loadMore} />}
        </div>
      )}
    </>
  );
}
