// Share, on the page of a track, album, playlist or artist: its link to copy, the embed code of
// the embeddable player with its size (tracks, albums, playlists), and for the owner of an item
// the unlisted link with its key (GET …/share-link, ADR 0025). A disclosure: the button shows and
// hides the panel.
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { useAction } from "./action.ts";
import { ErrorMessage, Status } from "./messages.tsx";

export type ShareKind = "tracks" | "albums" | "playlists" | "artists";

/** The embed's size by kind, as the Worker's oEmbed answers it (worker/…/previews/head.ts). */
const EMBED_SIZE = {
  tracks: { width: 480, height: 152 },
  albums: { width: 480, height: 380 },
  playlists: { width: 480, height: 380 },
} as const;

const LINK_PATHS = {
  tracks: "/api/v1/tracks/{id}/share-link",
  albums: "/api/v1/albums/{id}/share-link",
  playlists: "/api/v1/playlists/{id}/share-link",
} as const;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c,
  );

/** The iframe that shows the embeddable player of an item. */
export function embedCode(kind: keyof typeof EMBED_SIZE, id: string, title: string): string {
  const { width, height } = EMBED_SIZE[kind];
  const src = `${location.origin}/embed/${kind}/${id}`;
  return `<iframe src="${src}" width="${width}" height="${height}" title="${escapeHtml(`${title} on Edge Music`)}" style="border:0;border-radius:8px" loading="lazy" allow="autoplay; encrypted-media"></iframe>`;
}

export function ShareButton({
  kind,
  id,
  title,
  owner = null,
}: {
  kind: ShareKind;
  id: string;
  title: string;
  /** The account kind that owns the item, when the signed-in account does: its link is offered. */
  owner?: "user" | "artist" | null;
}) {
  const [open, setOpen] = useState(false);
  const panel = `share-${kind}-${id}`;
  return (
    <div class="share">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
      >
        Share
      </button>
      {open && (
        <section id={panel} class="share-panel" aria-label={`Share ${title}`}>
          <SharePanel kind={kind} id={id} title={title} owner={owner} />
        </section>
      )}
    </div>
  );
}

function SharePanel({
  kind,
  id,
  title,
  owner,
}: {
  kind: ShareKind;
  id: string;
  title: string;
  owner: "user" | "artist" | null;
}) {
  const [note, setNote] = useState("");
  const [unlisted, setUnlisted] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const link = `${location.origin}/${kind}/${id}`;
  const copy = (text: string, done: string) =>
    run(async () => {
      await navigator.clipboard.writeText(text);
      setNote(done);
    });
  const code = kind === "artists" ? null : embedCode(kind, id, title);
  const size = kind === "artists" ? null : EMBED_SIZE[kind];
  const readLink = () =>
    run(async () => {
      if (kind === "artists" || !owner) return;
      const url = unwrap(await api(owner).GET(LINK_PATHS[kind], { params: { path: { id } } })).url;
      setUnlisted(url);
      await navigator.clipboard.writeText(url).then(
        () => setNote("Unlisted link copied."),
        () => setNote(""),
      );
    });
  return (
    <>
      <div class="field">
        <label for={`${kind}-${id}-link`}>Link</label>
        <div class="row">
          <input id={`${kind}-${id}-link`} readOnly value={link} />
          <button type="button" onClick={() => copy(link, "Link copied.")}>
            Copy link
          </button>
        </div>
      </div>
      {code && size && (
        <div class="field">
          <label for={`${kind}-${id}-embed`}>
            Embed code ({size.width} × {size.height})
          </label>
          <textarea id={`${kind}-${id}-embed`} readOnly rows={3} value={code} />
          <button type="button" onClick={() => copy(code, "Embed code copied.")}>
            Copy embed code
          </button>
        </div>
      )}
      {owner && kind !== "artists" && (
        <div class="field">
          <button type="button" onClick={readLink} aria-busy={busy}>
            Copy unlisted link
          </button>
          {unlisted && (
            <>
              <label for={`${kind}-${id}-unlisted`}>
                Unlisted link (whoever has it can open it)
              </label>
              <input id={`${kind}-${id}-unlisted`} readOnly value={unlisted} />
            </>
          )}
        </div>
      )}
      <Status>{note}</Status>
      <ErrorMessage error={error} />
    </>
  );
}
