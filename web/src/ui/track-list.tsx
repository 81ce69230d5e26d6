// A list of tracks: play one (the list becomes the queue) or pause and resume the one playing,
// like it, add it to the queue, open its page, and (a signed-in listener) add it to a playlist.
// Its play count, where the list carries one.
import type { ComponentChildren } from "preact";
import { player } from "../player/engine.ts";
import { type QueueItem, artistName as shownName } from "../player/queue.ts";
import { account } from "../session.ts";
import { Cover } from "./cover.tsx";
import { formatTime } from "./format.ts";
import { Icon } from "./icons.tsx";
import { LikeButton } from "./like-button.tsx";
import { PlayCount } from "./plays.tsx";
import { TrackMenu } from "./track-menu.tsx";

/** What any of the API's track shapes carries that the queue needs. */
export interface TrackLike {
  id: string;
  title: string;
  cover: string | null;
  duration?: number | null;
  artistId: string;
  /** `displayName` once the API sends it: shown before the username. */
  artist?: { id: string; username: string; displayName?: string | null } | null;
  /** A catalogue track's measured loudness; absent from search results, playlists, history. */
  loudness?: { gainDb: number | null } | null;
  /** How many times it was played (catalogue lists); absent where the API does not count. */
  plays?: number;
  /** An unlisted track read with a key (its own or its album's): its signed URLs (ADR 0026). */
  stream?: { master: string };
}

export function toQueueItem(track: TrackLike, artistName?: string): QueueItem {
  return {
    id: track.id,
    title: track.title,
    cover: track.cover,
    duration: track.duration ?? null,
    artist: track.artist
      ? {
          id: track.artist.id,
          username: track.artist.username,
          ...(track.artist.displayName !== undefined
            ? { displayName: track.artist.displayName }
            : {}),
        }
      : artistName
        ? { id: track.artistId, username: artistName }
        : null,
    ...("loudness" in track ? { gainDb: track.loudness?.gainDb ?? null } : {}),
    ...(track.stream ? { stream: track.stream.master } : {}),
  };
}

export function TrackList({
  tracks,
  label,
  artistName,
  actions,
  numberOf,
}: {
  tracks: TrackLike[];
  label: string;
  /** The artist's name when the tracks do not carry it (an artist's own page). */
  artistName?: string;
  /** More buttons per track (remove from a playlist, …). */
  actions?: (track: TrackLike, index: number) => ComponentChildren;
  /**
   * A number shown first in each row (an album's track numbers). Screen readers hear the list's
   * own positions instead.
   */
  numberOf?: (track: TrackLike, index: number) => number;
}) {
  if (tracks.length === 0) return <p class="muted">No tracks yet.</p>;
  const queue = () => tracks.map((t) => toQueueItem(t, artistName));
  const currentId = player.current.value?.id;
  const playing = player.playing.value;
  const listener = account.value?.kind === "user";
  return (
    <ol class="tracks" aria-label={label}>
      {tracks.map((track, i) => {
        const current = track.id === currentId;
        // The track playing (from this list or not) pauses and resumes where it is.
        const pauses = current && playing;
        return (
          <li key={track.id} class={current ? "track current" : "track"}>
            {numberOf && (
              <span class="muted track-number" aria-hidden="true">
                {numberOf(track, i)}
              </span>
            )}
            <button
              type="button"
              class="icon play-track"
              aria-label={`${pauses ? "Pause" : "Play"} ${track.title}`}
              onClick={() => (current ? player.toggle() : void player.playQueue(queue(), i))}
            >
              <Icon name={pauses ? "pause" : "play"} />
            </button>
            <Cover src={track.cover} size={40} />
            <div class="track-text">
              <a href={`/tracks/${track.id}`} class="ellipsis">
                {track.title}
              </a>
              {(track.artist || artistName) && (
                <a class="muted ellipsis" href={`/artists/${track.artistId}`}>
                  {track.artist ? shownName(track.artist) : artistName}
                </a>
              )}
            </div>
            {track.plays !== undefined && <PlayCount plays={track.plays} />}
            {track.duration != null && (
              <span class="muted duration">{formatTime(track.duration)}</span>
            )}
            <LikeButton track={track} />
            <button
              type="button"
              class="icon small"
              aria-label={`Add ${track.title} to the queue`}
              onClick={() => player.enqueue(toQueueItem(track, artistName))}
            >
              <Icon name="plus" size={18} />
            </button>
            {listener && <TrackMenu track={track} />}
            {actions?.(track, i)}
          </li>
        );
      })}
    </ol>
  );
}
