// A studio row's edit form: the track's title, its album (or none: a single), its cover, who may
// reach it (its visibility) and, unlisted, its link.
import type { OwnTrack } from "@edge-music/client";
import { useState } from "preact/hooks";
import { api, type components, unwrap } from "../../api.ts";
import { Field, Form, read } from "../../ui/form.tsx";
import { CoverInput, checkImage } from "./cover-input.tsx";
import { EditPanel } from "./edit-panel.tsx";
import { ShareLink, type Visibility, VisibilitySelect } from "./share-link.tsx";

type AlbumSummary = components["schemas"]["AlbumSummary"];

/**
 * The form opens with the focus on its first field; Escape or Cancel closes it (the row's Edit
 * button takes the focus back, in the row). Only what changed is sent: JSON, or multipart when
 * a cover goes with it.
 */
export function TrackEdit({
  track,
  albums,
  onSaved,
  onClose,
}: {
  track: OwnTrack;
  /** The artist's albums; undefined while they are read (the track's own album is offered). */
  albums: AlbumSummary[] | undefined;
  onSaved: (track: OwnTrack) => void;
  onClose: () => void;
}) {
  const { id } = track;
  const [cover, setCover] = useState<File | null>(null);
  const choices = albums ?? (track.album ? [track.album] : []);

  const save = async (data: FormData) => {
    const title = read(data, `title-${id}`).trim();
    const albumId = read(data, `album-${id}`);
    const visibility = read(data, `visibility-${id}`) as Visibility;
    const changes = {
      ...(title !== track.title ? { title } : {}),
      ...(albumId !== (track.albumId ?? "") ? { albumId: albumId || null } : {}),
      ...(visibility !== track.visibility ? { visibility } : {}),
    };
    if (!cover && Object.keys(changes).length === 0) return onClose();
    const path = { params: { path: { id } } };
    let saved: OwnTrack;
    if (cover) {
      const form = new FormData();
      if (changes.title !== undefined) form.set("title", changes.title);
      // In multipart an empty value makes the track a single.
      if (changes.albumId !== undefined) form.set("albumId", changes.albumId ?? "");
      if (changes.visibility !== undefined) form.set("visibility", changes.visibility);
      form.set("cover", checkImage(cover));
      saved = unwrap(
        await api("artist").PUT("/api/v1/tracks/{id}", {
          ...path,
          body: form,
          bodySerializer: (body) => body,
        }),
      );
    } else {
      saved = unwrap(await api("artist").PUT("/api/v1/tracks/{id}", { ...path, body: changes }));
    }
    onSaved(saved);
  };

  return (
    <EditPanel onClose={onClose}>
      <Form label={`Edit ${track.title}`} submit="Save changes" onSubmit={save}>
        <Field
          label="Title"
          name={`title-${id}`}
          required
          maxLength={200}
          defaultValue={track.title}
        />
        <div class="field">
          <label for={`field-album-${id}`}>Album</label>
          <select id={`field-album-${id}`} name={`album-${id}`}>
            <option value="" selected={!track.albumId}>
              Single (no album)
            </option>
            {choices.map((album) => (
              <option key={album.id} value={album.id} selected={album.id === track.albumId}>
                {album.title}
              </option>
            ))}
          </select>
        </div>
        <VisibilitySelect name={`visibility-${id}`} value={track.visibility} />
        <CoverInput
          name={`cover-${id}`}
          label="Cover"
          alt={`New cover of ${track.title} (not saved yet)`}
          onFile={setCover}
        />
      </Form>
      <button type="button" onClick={onClose}>
        Cancel
      </button>
      {track.visibility === "unlisted" && <ShareLink kind="track" id={id} title={track.title} />}
    </EditPanel>
  );
}
