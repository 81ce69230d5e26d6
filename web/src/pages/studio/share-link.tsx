// An unlisted item's link in the studio: read from the API, copied, or replaced by a new one
// (the old link then stops working: ADR 0025).
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { ErrorMessage, Status } from "../../ui/messages.tsx";

export type Visibility = "public" | "unlisted" | "private";

/** What each visibility means, as the select offers it. */
export const VISIBILITIES: Array<[Visibility, string]> = [
  ["public", "Public: listed and searchable"],
  ["unlisted", "Unlisted: only people with the link"],
  ["private", "Private: only you"],
];

/** The visibility select of an edit form (`name` is the form field's name). */
export function VisibilitySelect({ name, value }: { name: string; value: Visibility }) {
  return (
    <div class="field">
      <label for={`field-${name}`}>Visibility</label>
      <select id={`field-${name}`} name={name}>
        {VISIBILITIES.map(([option, label]) => (
          <option key={option} value={option} selected={option === value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

const PATHS = {
  track: "/api/v1/tracks/{id}/share-link",
  album: "/api/v1/albums/{id}/share-link",
} as const;

/** The link of an own track or album, with Copy and New link. */
export function ShareLink({
  kind,
  id,
  title,
}: {
  kind: keyof typeof PATHS;
  id: string;
  title: string;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const { busy, error, run } = useAction();
  const path = { params: { path: { id } } };

  useEffect(() => {
    void run(async () => setUrl(unwrap(await api("artist").GET(PATHS[kind], path)).url));
  }, [kind, id]);

  const copy = () =>
    run(async () => {
      if (!url) return;
      await navigator.clipboard.writeText(url);
      setNote("Link copied.");
    });
  const rotate = () =>
    run(async () => {
      setUrl(unwrap(await api("artist").POST(PATHS[kind], path)).url);
      setNote("New link made: the old one no longer works.");
    });

  const field = `share-${kind}-${id}`;
  return (
    <div class="field share-link">
      <label for={field}>Link of {title}</label>
      <input id={field} readOnly value={url ?? ""} placeholder={busy ? "Loading…" : ""} />
      <div class="actions">
        <button type="button" onClick={copy} aria-disabled={!url || busy}>
          Copy link
        </button>
        <button type="button" onClick={rotate} aria-disabled={busy}>
          New link
        </button>
      </div>
      <ErrorMessage error={error} />
      <Status>{note}</Status>
    </div>
  );
}
