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
      <div class="field">
        <label for="field-visibility">Visibility</label>
        <select id="field-visibility" name="visibility">
          {VISIBILITIES.map(([value, label]) => (
            <option
              key={value}
              value={value}
              selected={value === (initial?.visibility ?? "private")}
            >
              {label}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

type Visibility = Playlist["visibility"];

/** Who may see a playlist (ADR 0025); `isPublic` is true exactly for the first. */
const VISIBILITIES: Array<[Visibility, string]> = [
  ["public", "Public: listed and searchable"],
  ["unlisted", "Unlisted: only people with the link"],
  ["private", "Private: only you"],
];

/** How a playlist's visibility is shown in a list or on its page. */
export const visibilityLabel = (visibility: Visibility) =>
  visibility === "public" ? "Public" : visibility === "unlisted" ? "Unlisted" : "Private";

export const playlistInput = (data: FormData) => ({
  title: String(data.get("title") ?? "").trim(),
  description: String(data.get("description") ?? "").trim(),
  visibility: String(data.get("visibility") ?? "private") as Visibility,
});
