// The artist's public profile: username, display name, bio and picture, sent as one multipart PUT.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { type ArtistAccount, signedIn } from "../../session.ts";
import { Cover } from "../../ui/cover.tsx";
import { Field, Form } from "../../ui/form.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { ArtistOnly } from "./shell.tsx";

const PICTURE_MAX = 5 * 1024 * 1024;
const PICTURE_TYPES = "image/png,image/jpeg,image/webp";
const BIO_MAX = 1000;

export function StudioProfile() {
  return <ArtistOnly title="Your profile">{(artist) => <Profile artist={artist} />}</ArtistOnly>;
}

function Profile({ artist }: { artist: ArtistAccount }) {
  const [bio, setBio] = useState(artist.bio);
  const [picture, setPicture] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | undefined>();
  const [saved, setSaved] = useState("");
  // A new key after each save: a fresh form (the file input emptied).
  const [round, setRound] = useState(0);
  // The fresh form replaces the one whose button had the focus: its button takes it back.
  const formBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (round > 0) formBox.current?.querySelector<HTMLElement>("button[type=submit]")?.focus();
  }, [round]);
  // A local blob: URL for the chosen file, revoked when replaced or left.
  useEffect(() => {
    if (!picture) return setPreview(undefined);
    const url = URL.createObjectURL(picture);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [picture]);

  const save = async (data: FormData) => {
    setSaved("");
    const form = new FormData();
    const username = String(data.get("username") ?? "").trim();
    if (username !== artist.username) form.set("username", username);
    // The API trims and collapses spaces; an empty value removes the name.
    const shown = String(data.get("displayName") ?? "").trim();
    if (shown !== (artist.displayName ?? "")) form.set("displayName", shown);
    if (bio !== artist.bio) form.set("bio", bio);
    if (picture) {
      if (picture.size > PICTURE_MAX) throw new Error("The picture is larger than 5 MB.");
      form.set("avatar", picture);
    }
    if (![...form.keys()].length) return setSaved("Nothing changed.");
    const answer = unwrap(
      await api("artist").PUT("/api/v1/artists/{id}", {
        params: { path: { id: artist.id } },
        body: form,
        bodySerializer: (body) => body,
      }),
    );
    signedIn({ kind: "artist", artist: { ...artist, ...answer } });
    setPicture(null);
    setRound((n) => n + 1);
    setSaved("Profile saved.");
  };

  return (
    <>
      <PageTitle title="Your profile">Your profile</PageTitle>
      <div class="profile">
        <Cover src={artist.avatar} size={96} alt="Your current avatar" />
        <p>
          <a href={`/artists/${artist.id}`}>See your public page</a>
        </p>
      </div>
      <div ref={formBox}>
        <Form key={round} label="Your profile" submit="Save profile" onSubmit={save}>
          <Field
            label="Username"
            name="username"
            required
            pattern="[A-Za-z0-9_.\-]{3,30}"
            hint="3 to 30 letters, digits, dots, dashes or underscores."
            defaultValue={artist.username}
            autoComplete="username"
          />
          <Field
            label="Display name"
            name="displayName"
            maxLength={50}
            hint="The name people see, spaces allowed (at most 50 characters). Empty: your username is shown."
            defaultValue={artist.displayName ?? ""}
            autoComplete="nickname"
          />
          <div class="field">
            <label for="field-bio">Bio</label>
            <textarea
              id="field-bio"
              name="bio"
              rows={5}
              maxLength={BIO_MAX}
              aria-describedby="field-bio-hint"
              value={bio}
              onInput={(event) => setBio(event.currentTarget.value)}
            />
            <small id="field-bio-hint" class="muted">
              {bio.length} of {BIO_MAX} characters.
            </small>
          </div>
          <Field
            label="Picture"
            name="avatar"
            type="file"
            accept={PICTURE_TYPES}
            hint="PNG, JPEG or WebP, at most 5 MB."
            onChange={(event) => setPicture(event.currentTarget.files?.[0] ?? null)}
          />
          {preview && (
            <p class="row">
              <img
                class="cover"
                src={preview}
                alt="Your new avatar (not saved yet)"
                width={96}
                height={96}
              />
              <span class="muted small">Saved with the profile.</span>
            </p>
          )}
        </Form>
      </div>
      <p role="status" class="ok">
        {saved}
      </p>
    </>
  );
}
