// The owner's edit of their playlist: title, description, visibility and cover; deleting it.
import { useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type components, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { Form } from "../../ui/form.tsx";
import { ErrorMessage } from "../../ui/messages.tsx";
import { PlaylistFields, playlistInput } from "../../ui/playlist-fields.tsx";

type Playlist = components["schemas"]["Playlist"];

const MAX_COVER_BYTES = 5 * 1024 * 1024;

export function EditPlaylist({
  playlist,
  set,
}: {
  playlist: Playlist;
  set: (p: Playlist) => void;
}) {
  const { route } = useLocation();
  const client = api("user");
  const path = { params: { path: { id: playlist.id } } };
  const [saved, setSaved] = useState("");
  const coverInput = useRef<HTMLInputElement>(null);

  const save = async (data: FormData) => {
    setSaved("");
    const fields = playlistInput(data);
    const cover = data.get("cover");
    const file = cover instanceof File && cover.size > 0 ? cover : null;
    if (file && file.size > MAX_COVER_BYTES) throw new Error("The cover must be at most 5 MB.");
    // With a cover the same fields go as multipart/form-data (the browser sets the boundary).
    const multipart = () => {
      const form = new FormData();
      form.set("title", fields.title);
      form.set("description", fields.description);
      form.set("visibility", fields.visibility);
      if (file) form.set("cover", file);
      return form;
    };
    const answer = unwrap(
      await client.PUT("/api/v1/playlists/{id}", {
        ...path,
        body: fields,
        bodySerializer: file ? multipart : undefined,
      }),
    );
    set(answer);
    if (coverInput.current) coverInput.current.value = "";
    setSaved("Saved.");
  };

  const deleting = useAction();
  const remove = () => {
    if (!confirm(`Delete the playlist “${playlist.title}”? This cannot be undone.`)) return;
    return deleting.run(async () => {
      unwrap(await client.DELETE("/api/v1/playlists/{id}", path));
      route("/library");
    });
  };

  return (
    <section aria-labelledby="edit-playlist">
      <h2 id="edit-playlist">Edit playlist</h2>
      <Form submit="Save" label="Edit playlist" onSubmit={save}>
        <PlaylistFields titleLabel="Title" initial={playlist} />
        <div class="field">
          <label for="field-cover">Cover</label>
          <input
            ref={coverInput}
            id="field-cover"
            name="cover"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-describedby="field-cover-hint"
          />
          <small id="field-cover-hint" class="muted">
            Optional: PNG, JPEG or WebP, at most 5 MB.
          </small>
        </div>
      </Form>
      <p role="status" class="ok">
        {saved}
      </p>
      <div class="row">
        <button type="button" class="danger" aria-busy={deleting.busy} onClick={remove}>
          Delete playlist
        </button>
      </div>
      <ErrorMessage error={deleting.error} />
    </section>
  );
}
