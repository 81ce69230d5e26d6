// An album's edit form in the studio: title, release date, description, cover, visibility and,
// unlisted, its link.
import { useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import { Field, Form, read } from "../../ui/form.tsx";
import { CoverInput, checkImage } from "./cover-input.tsx";
import { EditPanel } from "./edit-panel.tsx";
import { ShareLink, type Visibility, VisibilitySelect } from "./share-link.tsx";

type AlbumSummary = components["schemas"]["AlbumSummary"];

const DESCRIPTION_MAX = 2000;

/**
 * Opens with the focus on its first field; Escape or Cancel closes it. Only what changed is
 * sent: JSON, or multipart when a cover goes with it (an empty date there removes the date).
 */
export function AlbumEdit({
  album,
  onSaved,
  onClose,
}: {
  album: AlbumSummary;
  onSaved: (album: AlbumSummary) => void;
  onClose: () => void;
}) {
  const { id } = album;
  const [cover, setCover] = useState<File | null>(null);
  const [description, setDescription] = useState(album.description);

  const save = async (data: FormData) => {
    const title = read(data, `album-title-${id}`).trim();
    const releasedAt = read(data, `released-${id}`);
    const visibility = read(data, `album-visibility-${id}`) as Visibility;
    const changes = {
      ...(visibility !== album.visibility ? { visibility } : {}),
      ...(title !== album.title ? { title } : {}),
      ...(releasedAt !== (album.releasedAt ?? "") ? { releasedAt: releasedAt || null } : {}),
      ...(description !== album.description ? { description } : {}),
    };
    if (!cover && Object.keys(changes).length === 0) return onClose();
    const path = { params: { path: { id } } };
    if (cover) {
      const form = new FormData();
      for (const [key, value] of Object.entries(changes)) form.set(key, value ?? "");
      form.set("cover", checkImage(cover));
      onSaved(
        unwrap(
          await api("artist").PUT("/api/v1/albums/{id}", {
            ...path,
            body: form,
            bodySerializer: (body) => body,
          }),
        ),
      );
    } else {
      onSaved(unwrap(await api("artist").PUT("/api/v1/albums/{id}", { ...path, body: changes })));
    }
  };

  return (
    <EditPanel onClose={onClose}>
      <Form label={`Edit ${album.title}`} submit="Save changes" onSubmit={save}>
        <Field
          label="Title"
          name={`album-title-${id}`}
          required
          maxLength={200}
          defaultValue={album.title}
        />
        <Field
          label="Release date"
          name={`released-${id}`}
          type="date"
          hint="Optional; empty removes it."
          defaultValue={album.releasedAt ?? ""}
        />
        <div class="field">
          <label for={`field-description-${id}`}>Description</label>
          <textarea
            id={`field-description-${id}`}
            rows={4}
            maxLength={DESCRIPTION_MAX}
            aria-describedby={`field-description-${id}-hint`}
            value={description}
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
          <small id={`field-description-${id}-hint`} class="muted">
            {description.length} of {DESCRIPTION_MAX} characters.
          </small>
        </div>
        <VisibilitySelect name={`album-visibility-${id}`} value={album.visibility} />
        <CoverInput
          name={`album-cover-${id}`}
          label="Cover"
          alt={`New cover of ${album.title} (not saved yet)`}
          onFile={setCover}
        />
      </Form>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      {album.visibility === "unlisted" && <ShareLink kind="album" id={id} title={album.title} />}
    </EditPanel>
  );
}
