// A playlist's form fields, as both the new-playlist form (the library) and the owner's edit form
// (the playlist's page) ask them, and their values as the API takes them.
import type { components } from "../api.ts";
import { Field } from "./form.tsx";

type Playlist = components["schemas"]["Playlist"];

/** Title, description and visibility, as both the create and the edit form ask them. */
export function PlaylistFields({
  titleLabel,
  initial,
}: {
  titleLabel: string;
  initial?: Playlist;
}) {
  return (
    <>
      <Field
        label={titleLabel}
        name="title"
        required
        maxLength={100}
        autoComplete="off"
        defaultValue={initial?.title}
      />
      <div class="field">
        <label for="field-description">Description</label>
        <textarea
          id="field-description"
          name="description"
          rows={3}
          maxLength={1000}
          defaultValue={initial?.description}
        />
      </div>
      <label class="check">
        <input type="checkbox" name="isPublic" defaultChecked={initial?.isPublic} /> Public
      </label>
    </>
  );
}

export const playlistInput = (data: FormData) => ({
  title: String(data.get("title") ?? "").trim(),
  description: String(data.get("description") ?? "").trim(),
  isPublic: data.has("isPublic"),
});
