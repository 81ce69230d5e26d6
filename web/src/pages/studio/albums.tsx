// The artist's albums: create one; edit one (title, date, description, cover) and its track
// order; delete one (its tracks stay, as singles).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import type { ArtistAccount } from "../../session.ts";
import { useAction } from "../../ui/action.ts";
import { Cover } from "../../ui/cover.tsx";
import { useFocusAt } from "../../ui/focus.ts";
import { Field, Form } from "../../ui/form.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { useLatest, useResource } from "../../ui/resource.ts";
import { AlbumEdit } from "./album-edit.tsx";
import { AlbumOrder } from "./album-order.tsx";
import { ArtistOnly, allPages } from "./shell.tsx";

type AlbumSummary = components["schemas"]["AlbumSummary"];

export function StudioAlbums() {
  return <ArtistOnly title="Your albums">{(artist) => <Albums artist={artist} />}</ArtistOnly>;
}

function Albums({ artist }: { artist: ArtistAccount }) {
  const albums = useResource(
    (signal) =>
      allPages(async (page, limit) =>
        unwrap(
          await api("artist").GET("/api/v1/artists/{id}/albums", {
            params: { path: { id: artist.id }, query: { page, limit } },
            signal,
          }),
        ),
      ),
    [artist.id],
  );
  const [news, setNews] = useState("");
  // A new key after each creation: a fresh, empty form.
  const [created, setCreated] = useState(0);
  // The fresh form replaces the one whose button had the focus: its button takes it back.
  const newAlbum = useRef<HTMLElement>(null);
  useEffect(() => {
    if (created > 0) newAlbum.current?.querySelector<HTMLElement>("button[type=submit]")?.focus();
  }, [created]);
  const list = albums.data ?? [];
  // Writes that end after others must see their result, not the list of their render.
  const latest = useLatest(albums);
  // After a delete: the next album's Delete button, else the page's heading.
  const { box, focusAt } = useFocusAt<HTMLUListElement>("button[data-delete]");
  const replace = (album: AlbumSummary) =>
    latest.set(latest.get().map((a) => (a.id === album.id ? album : a)));
  return (
    <>
      <PageTitle title="Your albums">Your albums</PageTitle>
      <p role="status">{news}</p>
      <section aria-labelledby="new-album" ref={newAlbum}>
        <h2 id="new-album">New album</h2>
        <Form
          key={created}
          label="New album"
          submit="Create album"
          onSubmit={async (data) => {
            const releasedAt = String(data.get("releasedAt") ?? "");
            const body = {
              title: String(data.get("title") ?? ""),
              ...(releasedAt ? { releasedAt } : {}),
            };
            const album = unwrap(await api("artist").POST("/api/v1/albums", { body }));
            // Before the list has come, it is read again (it then holds the new album).
            if (albums.data) latest.set([album, ...latest.get()]);
            else albums.reload();
            setCreated((n) => n + 1);
            setNews(`Album “${album.title}” created.`);
          }}
        >
          <Field label="Album title" name="title" required maxLength={200} />
          <Field label="Release date" name="releasedAt" type="date" hint="Optional." />
        </Form>
      </section>
      <section aria-labelledby="album-list">
        <h2 id="album-list">Albums</h2>
        {albums.error ? (
          <ErrorMessage error={albums.error} />
        ) : !albums.data ? (
          <Loading />
        ) : list.length === 0 ? (
          <p class="muted">No albums yet. Tracks can be added to one when uploaded.</p>
        ) : (
          <ul class="tracks" aria-label="Your albums" ref={box}>
            {list.map((album) => (
              <AlbumRow
                key={album.id}
                album={album}
                onSaved={(saved) => {
                  replace(saved);
                  setNews(`Album “${saved.title}” saved.`);
                }}
                onDeleted={() => {
                  const index = latest.get().findIndex((a) => a.id === album.id);
                  if (index >= 0) focusAt(index);
                  latest.set(latest.get().filter((a) => a.id !== album.id));
                  setNews(`Album “${album.title}” deleted.`);
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** What a row shows under it: nothing, its edit form, or its track order. */
type Open = "none" | "edit" | "order";

function AlbumRow({
  album,
  onSaved,
  onDeleted,
}: {
  album: AlbumSummary;
  onSaved: (album: AlbumSummary) => void;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState<Open>("none");
  const editButton = useRef<HTMLButtonElement>(null);
  const toggle = (which: Open) => setOpen(open === which ? "none" : which);
  const closeEdit = () => {
    setOpen("none");
    // The form goes: its Edit button takes the focus back.
    editButton.current?.focus();
  };
  const { busy, error, run } = useAction();
  const path = { params: { path: { id: album.id } } };
  const remove = async () => {
    if (!confirm(`Delete the album “${album.title}”? Its tracks are kept, as singles.`)) return;
    await run(async () => {
      unwrap(await api("artist").DELETE("/api/v1/albums/{id}", path));
      onDeleted();
    });
  };
  return (
    <li class="track wrap">
      <Cover src={album.cover} size={40} />
      <div class="track-text">
        <a href={`/albums/${album.id}`} class="ellipsis">
          {album.title}
        </a>
        <span class="muted small">{album.releasedAt ?? "No release date"}</span>
      </div>
      <button
        type="button"
        aria-label={`Edit ${album.title}`}
        aria-expanded={open === "edit"}
        ref={editButton}
        onClick={() => toggle("edit")}
      >
        Edit
      </button>
      <button
        type="button"
        aria-label={`Track order of ${album.title}`}
        aria-expanded={open === "order"}
        onClick={() => toggle("order")}
      >
        Track order
      </button>
      <button
        type="button"
        class="danger"
        aria-label={`Delete ${album.title}`}
        aria-busy={busy}
        data-delete
        onClick={remove}
      >
        Delete
      </button>
      {open === "edit" && (
        <AlbumEdit
          album={album}
          onClose={closeEdit}
          onSaved={(saved) => {
            closeEdit();
            onSaved(saved);
          }}
        />
      )}
      {open === "order" && <AlbumOrder albumId={album.id} title={album.title} />}
      <ErrorMessage error={error} />
    </li>
  );
}
