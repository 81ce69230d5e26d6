// Uploading a track: the file with progress (the form upload, or straight to storage when it is
// too large for one request), then its conversion followed live on the same page.
import type { OwnTrack, UploadProgress } from "@edge-music/client";
import { ACCEPTED_AUDIO_EXTENSIONS, ACCEPTED_AUDIO_LIST } from "@edge-music/contracts/audio-names";
import type { TargetedSubmitEvent } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, messageOf, unwrap } from "../../api.ts";
import type { ArtistAccount } from "../../session.ts";
import { Field } from "../../ui/form.tsx";
import { PageTitle } from "../../ui/headings.tsx";
import { ErrorMessage } from "../../ui/messages.tsx";
import { useResource } from "../../ui/resource.ts";
import { Conversion } from "./conversion.tsx";
import { type Visibility, VisibilitySelect } from "./share-link.tsx";
import { ArtistOnly, allPages } from "./shell.tsx";

/** Above this, the form upload (at most 100 MB by default) leaves no room: go to storage directly. */
const FORM_UPLOAD_MAX = 95 * 1024 * 1024;
// The list the API's refusals name (one source in contracts); the file's bytes decide.
const ACCEPT = ["audio/*", ...ACCEPTED_AUDIO_EXTENSIONS].join(",");

export function Upload() {
  return (
    <ArtistOnly title="Upload a track">{(artist) => <UploadPage artist={artist} />}</ArtistOnly>
  );
}

type Sending = { progress: UploadProgress; cancel: AbortController };

function UploadPage({ artist }: { artist: ArtistAccount }) {
  const [uploaded, setUploaded] = useState<OwnTrack | null>(null);
  const [again, setAgain] = useState(false);
  return (
    <>
      <PageTitle title="Upload a track">Upload a track</PageTitle>
      {uploaded ? (
        <>
          <Conversion track={uploaded} />
          <p>
            <a
              href="/studio/upload"
              onClick={(event) => {
                event.preventDefault();
                setUploaded(null);
                setAgain(true);
              }}
            >
              Upload another
            </a>{" "}
            · <a href="/studio">All your tracks</a>
          </p>
        </>
      ) : (
        <UploadForm artistId={artist.id} onUploaded={setUploaded} focusFirst={again} />
      )}
    </>
  );
}

function UploadForm({
  artistId,
  onUploaded,
  focusFirst,
}: {
  artistId: string;
  onUploaded: (track: OwnTrack) => void;
  /** After "Upload another": the link that had focus is gone. */
  focusFirst: boolean;
}) {
  const albums = useResource(
    (signal) =>
      allPages(async (page, limit) =>
        unwrap(
          await api("artist").GET("/api/v1/artists/{id}/albums", {
            params: { path: { id: artistId }, query: { page, limit } },
            signal,
          }),
        ),
      ),
    [artistId],
  );
  const [title, setTitle] = useState("");
  // The title made from the last file's name: replaced by the next file's, unlike a typed one.
  const [fileTitle, setFileTitle] = useState("");
  const [sending, setSending] = useState<Sending | null>(null);
  const [outcome, setOutcome] = useState<{ error?: unknown; cancelled?: boolean }>({});
  const form = useRef<HTMLFormElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  // Only when the form first shows.
  useEffect(() => {
    if (focusFirst) form.current?.querySelector("input")?.focus();
  }, []);
  // Cancelled or failed: the Cancel button that had focus is gone.
  useEffect(() => {
    if (outcome.cancelled || outcome.error) submitButton.current?.focus();
  }, [outcome]);
  // Sending: the form is disabled, the Upload button with it; Cancel takes the focus.
  const cancelButton = useRef<HTMLButtonElement>(null);
  const busy = sending !== null;
  useEffect(() => {
    if (busy) cancelButton.current?.focus();
  }, [busy]);

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (sending) return;
    if (!(file instanceof File) || file.size === 0) {
      setOutcome({ error: new Error("Choose an audio file (this one is empty).") });
      return;
    }
    const albumId = String(data.get("albumId") ?? "") || undefined;
    const visibility = String(data.get("visibility") ?? "public") as Visibility;
    const big = file.size > FORM_UPLOAD_MAX;
    const cancel = new AbortController();
    const input = {
      file,
      title: title.trim(),
      ...(albumId ? { albumId } : {}),
      visibility,
      onProgress: (progress: UploadProgress) => setSending({ progress, cancel }),
    };
    setOutcome({});
    setSending({ progress: { loaded: 0, total: file.size }, cancel });
    try {
      onUploaded(
        big
          ? // Parts through the API (our origin): storage's own is not in the page's CSP.
            await api("artist").directUpload({ ...input, via: "api", signal: cancel.signal })
          : await api("artist").uploadTrack({ ...input, signal: cancel.signal }),
      );
    } catch (error) {
      setOutcome(cancel.signal.aborted ? { cancelled: true } : { error });
    } finally {
      setSending(null);
    }
  };

  const { loaded = 0, total = 0 } = sending?.progress ?? {};
  const percent = total > 0 ? Math.floor((loaded / total) * 100) : 0;
  return (
    <form ref={form} onSubmit={submit} aria-label="Upload a track">
      <fieldset class="bare" disabled={sending !== null}>
        <Field
          label="Audio file"
          name="file"
          type="file"
          accept={ACCEPT}
          required
          hint={`${ACCEPTED_AUDIO_LIST}.`}
          onChange={(event) => {
            const name = event.currentTarget.files?.[0]?.name;
            if (!name || (title.trim() && title !== fileTitle)) return;
            const fromName = name.replace(/\.[^.]+$/, "").slice(0, 200);
            setTitle(fromName);
            setFileTitle(fromName);
          }}
        />
        <Field
          label="Title"
          name="title"
          required
          maxLength={200}
          value={title}
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
        <div class="field">
          <label for="field-albumId">Album</label>
          <select id="field-albumId" name="albumId" aria-describedby="field-albumId-hint">
            <option value="">No album (single)</option>
            {albums.data?.map((album) => (
              <option key={album.id} value={album.id}>
                {album.title}
              </option>
            ))}
          </select>
          <small id="field-albumId-hint" class="muted">
            {albums.error ? `Your albums could not be read: ${messageOf(albums.error)}` : ""}
          </small>
        </div>
        <VisibilitySelect name="visibility" value="public" />
        <button ref={submitButton} type="submit" class="primary">
          Upload
        </button>
      </fieldset>
      {sending && (
        <div class="row">
          <progress aria-label="Upload progress" value={loaded} max={total || 1} />
          <button ref={cancelButton} type="button" onClick={() => sending.cancel.abort()}>
            Cancel
          </button>
        </div>
      )}
      {/* Always in the page, so that screen readers follow its changes. */}
      <p role="status">
        {sending
          ? loaded < total
            ? `Uploading… ${percent} %`
            : "Uploaded 100 %, saving…"
          : outcome.cancelled
            ? "Upload cancelled."
            : ""}
      </p>
      <ErrorMessage error={outcome.error} />
    </form>
  );
}
