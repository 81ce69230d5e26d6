// An album's track order in the studio: every track of the album (converting ones too, as the
// API's order route wants them all), moved up or down, then saved at once.
import type { OwnTrack } from "@edge-music/client";
import { useState } from "preact/hooks";
import { api, unwrap } from "../../api.ts";
import { useAction } from "../../ui/action.ts";
import { useFocusNext } from "../../ui/focus.ts";
import { ErrorMessage, Loading } from "../../ui/messages.tsx";
import { MoveButtons } from "../../ui/move-buttons.tsx";
import { useResource } from "../../ui/resource.ts";
import { allPages } from "./shell.tsx";

/** The album's tracks in album order: its positions, then the order they were added. */
function albumTracks(all: OwnTrack[], albumId: string): OwnTrack[] {
  const place = (t: OwnTrack) => t.albumPosition ?? Number.POSITIVE_INFINITY;
  return all
    .filter((t) => t.albumId === albumId)
    .sort((a, b) => place(a) - place(b) || a.createdAt.localeCompare(b.createdAt));
}

/**
 * Moves change the list here; "Save order" sends it (PUT /albums/{id}/tracks/order). The focus
 * stays on the moved track's button in the direction it went, else the other one.
 */
export function AlbumOrder({ albumId, title }: { albumId: string; title: string }) {
  const tracks = useResource(
    async (signal) =>
      albumTracks(
        await allPages(async (page, limit) =>
          unwrap(
            await api("artist").GET("/api/v1/artists/me/tracks", {
              params: { query: { page, limit } },
              signal,
            }),
          ),
        ),
        albumId,
      ),
    [albumId],
  );
  const [order, setOrder] = useState<OwnTrack[] | null>(null);
  const [saved, setSaved] = useState("");
  const saving = useAction();
  const { box, focusNext } = useFocusNext<HTMLDivElement>((within) =>
    within?.querySelector<HTMLElement>("h3"),
  );
  if (tracks.error) return <ErrorMessage error={tracks.error} />;
  if (!tracks.data) return <Loading label="Reading the album's tracks…" />;
  const list = order ?? tracks.data;
  const last = list.length - 1;

  const move = (index: number, by: -1 | 1) => {
    const next = [...list];
    const [track] = next.splice(index, 1);
    if (!track) return;
    next.splice(index + by, 0, track);
    const [ahead, back] = by < 0 ? ["up", "down"] : ["down", "up"];
    focusNext((within) =>
      [ahead, back]
        .map((way) =>
          within.querySelector<HTMLElement>(`button[data-key="${way} ${track.id}"]:not(:disabled)`),
        )
        .find(Boolean),
    );
    setSaved(
      `Moved ${track.title} to position ${index + by + 1} of ${next.length}. Not saved yet.`,
    );
    setOrder(next);
  };
  const save = () =>
    saving.run(async () => {
      unwrap(
        await api("artist").PUT("/api/v1/albums/{id}/tracks/order", {
          params: { path: { id: albumId } },
          body: { trackIds: list.map((t) => t.id) },
        }),
      );
      setSaved("Track order saved.");
    });

  return (
    <div class="full" ref={box}>
      <h3 tabIndex={-1}>Track order of {title}</h3>
      {list.length === 0 ? (
        <p class="muted">No tracks on this album yet: add one from a track's Edit in Tracks.</p>
      ) : (
        <>
          <ol class="tracks" aria-label={`Track order of ${title}`}>
            {list.map((track, i) => (
              <li key={track.id} class="track">
                <span class="muted track-number">{i + 1}</span>
                <span class="track-text ellipsis">
                  {track.title}
                  {track.processingStatus !== "READY" && (
                    <span class="muted small"> (not ready: not shown on the album yet)</span>
                  )}
                </span>
                <MoveButtons
                  title={track.title}
                  id={track.id}
                  index={i}
                  last={last}
                  onMove={move}
                />
              </li>
            ))}
          </ol>
          <button type="button" class="primary" aria-busy={saving.busy} onClick={save}>
            Save order
          </button>
        </>
      )}
      <p role="status" class="muted small">
        {saved}
      </p>
      <ErrorMessage error={saving.error} />
    </div>
  );
}
