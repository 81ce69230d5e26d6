// The one player of the page: a queue (shuffle, repeat, edits: the rules of queue.ts), an <audio>
// element fed by hls.js (loaded on the first play; Safari's own HLS where MSE is missing), the
// track's loudness gain through Web Audio, the waveform, Media Session controls, a play reported
// once 30 s of it were heard (heard.ts, report-play.ts), and similar tracks when the queue ends.
import { computed, signal } from "@preact/signals";
import type HlsType from "hls.js";
import { api, unwrap } from "../api.ts";
import { announce } from "./announce.ts";
import { HeardTime } from "./heard.ts";
import { bindControls, showPosition, showTrack } from "./media-session.ts";
import {
  afterEnd,
  appended,
  cleared,
  EMPTY_QUEUE,
  gainFactor,
  moved,
  nextIndex,
  nextRepeat,
  previousTarget,
  type QueueItem,
  type QueueState,
  qualityLabel,
  type RepeatMode,
  removed,
  replaced,
  shuffled,
  unshuffled,
} from "./queue.ts";
import { reportPlay } from "./report-play.ts";
import type { SavedQueue } from "./saved-queue.ts";
import { SIMILAR_LIMIT, similarStored, similarToAdd, storeSimilar } from "./similar.ts";

const VOLUME_KEY = "edge-music.volume";
const NORMALISE_KEY = "edge-music.normalise";
/** Media errors hls.js may try to recover from, per track, before the player gives up. */
const MAX_RECOVERIES = 2;

const storedVolume = () => {
  const v = Number(localStorage.getItem(VOLUME_KEY));
  return localStorage.getItem(VOLUME_KEY) !== null && v >= 0 && v <= 1 ? v : 0.8;
};

export class Player {
  /** The queue, the entry playing, the order before a shuffle: edited only through queue.ts. */
  readonly state = signal<QueueState>(EMPTY_QUEUE);
  readonly queue = computed(() => this.state.value.items);
  readonly index = computed(() => this.state.value.index);
  readonly current = computed(() => this.queue.value[this.index.value] ?? null);
  readonly shuffle = computed(() => this.state.value.ranks !== null);
  readonly repeat = signal<RepeatMode>("off");
  readonly playing = signal(false);
  readonly waiting = signal(false);
  readonly currentTime = signal(0);
  readonly duration = signal(0);
  /** The bitrate hls.js plays now ("192 kbps"); null before the first level or without hls.js. */
  readonly quality = signal<string | null>(null);
  readonly volume = signal(storedVolume());
  readonly muted = signal(false);
  /** Loudness normalisation on (the default) or off. */
  readonly normalise = signal(localStorage.getItem(NORMALISE_KEY) !== "off");
  /** The current track's correction in dB, once known; null when it has none. */
  readonly gainDb = signal<number | null>(null);
  /** The current track's waveform (0–1 peaks), once loaded; null when it has none (yet). */
  readonly peaks = signal<number[] | null>(null);
  readonly error = signal<string | null>(null);
  /** When the queue ends, similar tracks are added and play on (similar.ts). */
  readonly similar = signal(similarStored());

  #audio: HTMLAudioElement | undefined;
  #hls: HlsType | undefined;
  #graph: { context: AudioContext; gain: GainNode } | null | undefined;
  #load = 0;
  /** What was heard of this play of the current track. */
  #heard = new HeardTime();
  /** This play of the current track was reported. */
  #listened = false;
  /** A refresh of the session was tried since the stream last played (one per expiry). */
  #refreshed = false;
  /** Media errors hls.js was asked to recover from, for this track. */
  #recoveries = 0;
  /**
   * The current track came back from a saved queue and its stream is not loaded yet: play loads
   * it from here (seconds); null once it is (or for a track started here).
   */
  #resumeAt: number | null = null;
  /** The listener did something here (played, edited the queue): this page's queue is news. */
  #acted = false;
  /** When the queue, the track or its position last changed here, or the restored one was saved. */
  #changedAt = 0;

  /** The <audio> element (in the page, hidden: tests and assistive tools can find it). */
  element(): HTMLAudioElement {
    if (this.#audio) return this.#audio;
    const audio = document.createElement("audio");
    audio.id = "player-audio";
    audio.preload = "auto";
    audio.hidden = true;
    document.body.append(audio);
    audio.addEventListener("play", () => {
      this.#changedAt = Date.now();
      this.playing.value = true;
    });
    audio.addEventListener("pause", () => {
      this.#changedAt = Date.now();
      this.playing.value = false;
    });
    audio.addEventListener("waiting", () => {
      this.waiting.value = true;
    });
    audio.addEventListener("playing", () => {
      this.waiting.value = false;
      this.#refreshed = false;
    });
    // A seek is not listening: the heard time goes on from where it lands.
    audio.addEventListener("seeking", () => this.#heard.jump());
    // The browser's own HLS (no MediaSource, as on iOS) reports here; hls.js reports its own.
    audio.addEventListener("error", () => {
      if (this.#hls || this.index.value < 0 || !audio.error) return;
      // The browser does not say why: it may be an access cookie that ran out.
      const item = this.current.value;
      if (item && this.#renew(item.id, this.#load)) return;
      this.#stopped("Playback stopped: the stream could not be read.");
    });
    audio.addEventListener("timeupdate", () => {
      // While playing, and the last one at the end (already paused there): the time heard. A
      // seek has its own event; a pause moves nothing.
      if (!audio.paused || audio.ended) this.#heard.at(audio.currentTime);
      if (!audio.paused) {
        this.#changedAt = Date.now();
        this.#countPlay();
      }
      this.currentTime.value = audio.currentTime;
      if (this.#audio) showPosition(this.#audio);
    });
    audio.addEventListener("durationchange", () => {
      if (Number.isFinite(audio.duration)) this.duration.value = audio.duration;
    });
    audio.addEventListener("ended", () => {
      this.#heard.end(audio.duration);
      this.#countPlay();
      // Whatever plays next, this entry again included, is a new play.
      this.#heard.reset();
      this.#listened = false;
      this.#ended();
    });
    this.#audio = audio;
    this.#applyVolume();
    bindControls({
      play: () => void this.play(),
      pause: () => this.pause(),
      previous: () => this.previous(),
      next: () => this.next(),
      seek: (seconds) => this.seek(seconds),
      seekBy: (seconds) => this.seekBy(seconds),
    });
    return audio;
  }

  /** Whether the listener did anything with the player in this page (a restore is not doing). */
  get acted(): boolean {
    return this.#acted;
  }

  /** When the queue, the track or its position last changed (ms since the epoch). */
  changedAt(): number {
    return this.#changedAt;
  }

  /** Something the listener did: this page's queue is the newest. */
  #act(): void {
    this.#acted = true;
    this.#changedAt = Date.now();
  }

  /** Replaces the queue and plays `start` (first, when shuffle is on). */
  playQueue(items: QueueItem[], start = 0): Promise<void> {
    this.#act();
    this.state.value = replaced(this.state.value, items, start);
    return this.playAt(this.index.value);
  }

  /** Adds to the end of the queue, without starting it, and says so. */
  enqueue(item: QueueItem): void {
    this.#act();
    this.state.value = appended(this.state.value, [item]);
    announce(`Added ${item.title} to the queue.`);
  }

  removeAt(i: number): void {
    this.#act();
    this.state.value = removed(this.state.value, i);
  }

  move(from: number, to: number): void {
    this.#act();
    this.state.value = moved(this.state.value, from, to);
  }

  /** Empties the queue but for the track playing. */
  clear(): void {
    this.#act();
    this.state.value = cleared(this.state.value);
  }

  toggleShuffle(): void {
    this.#act();
    const state = this.state.value;
    this.state.value = state.ranks ? unshuffled(state) : shuffled(state);
  }

  cycleRepeat(): void {
    this.#act();
    this.repeat.value = nextRepeat(this.repeat.value);
  }

  /** A queue saved earlier, back in place: the current track paused at its position. */
  restore(saved: SavedQueue): void {
    const { items, index, ranks } = saved;
    const item = items[index];
    const load = ++this.#load;
    this.#hls?.destroy();
    this.#hls = undefined;
    this.#audio?.pause();
    this.error.value = null;
    this.#changedAt = saved.savedAt;
    this.#resumeAt = item ? saved.position : null;
    this.#heard.reset();
    this.#listened = false;
    this.currentTime.value = item ? saved.position : 0;
    this.duration.value = item?.duration ?? 0;
    this.gainDb.value = item?.gainDb ?? null;
    this.peaks.value = null;
    this.quality.value = null;
    this.state.value = { items, index, ranks };
    this.repeat.value = saved.repeat;
    if (!item) return;
    showTrack(item);
    void this.#details(item, load);
  }

  /** Nothing in the queue, nothing loaded (a listener signed out: their queue leaves with them). */
  forget(): void {
    this.restore({ items: [], index: -1, ranks: null, position: 0, repeat: "off", savedAt: 0 });
    this.#acted = false;
    showTrack(null);
  }

  /** Where the current track is (seconds), loaded or not. */
  position(): number {
    return this.#resumeAt ?? this.#audio?.currentTime ?? 0;
  }

  async playAt(i: number): Promise<void> {
    const item = this.queue.value[i];
    if (!item) return;
    const load = ++this.#load;
    this.#act();
    this.state.value = { ...this.state.value, index: i };
    this.#resumeAt = null;
    this.currentTime.value = 0;
    this.duration.value = item.duration ?? 0;
    this.quality.value = null;
    this.peaks.value = null;
    this.gainDb.value = item.gainDb ?? null;
    this.error.value = null;
    this.#heard.reset();
    this.#listened = false;
    this.#refreshed = false;
    this.#recoveries = 0;
    showTrack(item);
    this.#applyVolume();
    void this.#details(item, load);
    await this.#attach(item.id, load);
  }

  toggle(): void {
    const audio = this.element();
    if (this.index.value < 0) {
      if (this.queue.value.length) void this.playAt(0);
      return;
    }
    // After a fatal error the stream is gone: play loads it again.
    if (this.error.value) void this.playAt(this.index.value);
    else if (audio.paused) void this.play();
    else audio.pause();
  }

  async play(): Promise<void> {
    this.#act();
    const audio = this.element();
    const item = this.current.value;
    if (this.#resumeAt !== null && item) {
      // A restored track: its stream loads now, from where it was.
      const from = this.#resumeAt;
      this.#resumeAt = null;
      await this.#attach(item.id, this.#load, { from });
      return;
    }
    this.#startGraph();
    await this.#graph?.context.resume().catch(() => undefined);
    await audio.play().catch((error: unknown) => {
      // A browser that wants a gesture first: the play button is that gesture.
      if (!(error instanceof DOMException && error.name === "AbortError")) {
        this.playing.value = false;
      }
    });
  }

  pause(): void {
    this.#audio?.pause();
  }

  seek(seconds: number): void {
    this.#act();
    if (this.#resumeAt !== null) {
      // Not loaded yet: the stream will start there.
      const end = this.duration.value || Number.POSITIVE_INFINITY;
      this.#resumeAt = Math.min(Math.max(0, seconds), Math.max(0, end - 0.25));
      this.currentTime.value = this.#resumeAt;
      return;
    }
    const audio = this.element();
    const end = Number.isFinite(audio.duration) ? audio.duration : this.duration.value;
    audio.currentTime = Math.min(Math.max(0, seconds), Math.max(0, end - 0.25));
    this.currentTime.value = audio.currentTime;
  }

  seekBy(seconds: number): void {
    this.seek(this.position() + seconds);
  }

  next(): void {
    const i = nextIndex(this.index.value, this.queue.value.length, this.repeat.value);
    if (i === null) this.pause();
    else void this.playAt(i);
  }

  previous(): void {
    const { index, items } = this.state.value;
    const target = previousTarget(index, this.position(), items.length, this.repeat.value);
    if (!target) return;
    if (target.restart) this.seek(0);
    else void this.playAt(target.index);
  }

  /** The track played to its end: again (repeat one), the next, similar tracks, or stop. */
  #ended(): void {
    const { index, items } = this.state.value;
    const i = afterEnd(index, items.length, this.repeat.value);
    if (i === null) {
      if (this.similar.value) void this.#playSimilar();
      return;
    }
    if (i !== index) {
      void this.playAt(i);
      return;
    }
    this.seek(0);
    void this.play();
  }

  setSimilar(on: boolean): void {
    this.similar.value = on;
    storeSimilar(on);
  }

  /**
   * The queue ran out: what the last track's listeners also played goes to its end and plays,
   * unless the listener did something meanwhile. Nothing related (or the API unreachable): the
   * player stops as it would have.
   */
  async #playSimilar(): Promise<void> {
    const state = this.state.value;
    const last = state.items[state.index];
    if (!last) return;
    const load = this.#load;
    const related = await api()
      .GET("/api/v1/tracks/{id}/related", {
        params: { path: { id: last.id }, query: { limit: SIMILAR_LIMIT } },
      })
      .then(unwrap)
      .catch(() => []);
    // Another track, an edit of the queue or a play of this one since: the listener chose.
    if (load !== this.#load || this.state.value !== state || !this.#audio?.paused) return;
    const added = similarToAdd(related, this.state.value.items);
    const first = added[0];
    if (!first) return;
    this.state.value = appended(this.state.value, added);
    announce(`Playing similar tracks: ${first.title} next.`);
    await this.playAt(this.state.value.items.indexOf(first));
  }

  setVolume(volume: number): void {
    this.volume.value = Math.min(1, Math.max(0, volume));
    this.muted.value = false;
    localStorage.setItem(VOLUME_KEY, String(this.volume.value));
    this.#applyVolume();
  }

  toggleMute(): void {
    this.muted.value = !this.muted.value;
    this.#applyVolume();
  }

  setNormalise(on: boolean): void {
    this.normalise.value = on;
    localStorage.setItem(NORMALISE_KEY, on ? "on" : "off");
    this.#applyVolume();
  }

  /** Loads the track's stream (from `from` seconds) and plays it, unless told not to. */
  async #attach(trackId: string, load: number, { from = 0, play = true } = {}): Promise<void> {
    const audio = this.element();
    const item = this.current.value;
    const master =
      item?.id === trackId && item.stream
        ? item.stream
        : `/api/v1/tracks/stream/${trackId}/hls/master.m3u8`;
    this.#hls?.destroy();
    this.#hls = undefined;
    const { default: Hls } = await import("hls.js/light");
    if (load !== this.#load) return;
    if (Hls.isSupported()) {
      const hls = new Hls({ startLevel: -1, capLevelToPlayerSize: false, startPosition: from });
      this.#hls = hls;
      hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => {
        this.quality.value = qualityLabel(hls.levels[data.level]?.bitrate);
      });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal || load !== this.#load) return;
        const status = data.response?.code;
        if (status === 401 && this.#renew(trackId, load)) return;
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR && this.#recoveries < MAX_RECOVERIES) {
          this.#recoveries++;
          hls.recoverMediaError();
          return;
        }
        this.#stopped(
          status === 404
            ? "This track cannot be played yet (it is still being converted, or was removed)."
            : `Playback stopped: ${data.details}.`,
        );
      });
      hls.loadSource(master);
      hls.attachMedia(audio);
    } else if (audio.canPlayType("application/vnd.apple.mpegurl")) {
      audio.src = master;
      if (from > 0) audio.currentTime = from;
    } else {
      this.error.value = "This browser cannot play HLS streams.";
      return;
    }
    if (play) await this.play();
  }

  /**
   * The access cookie ran out between a stream's requests: refresh the session once (per time
   * the stream played) and load the stream again where it is now, playing only if it was.
   * False when that was tried already.
   */
  #renew(trackId: string, load: number): boolean {
    if (this.#refreshed) return false;
    this.#refreshed = true;
    const audio = this.element();
    const playing = !audio.paused;
    void api()
      .refreshSession()
      .then((renewed) => {
        if (load !== this.#load) return;
        if (!renewed) this.#stopped("Your session has ended: sign in again to go on listening.");
        // Where it is when the refresh answers: the buffer may have played on meanwhile.
        else void this.#attach(trackId, load, { from: audio.currentTime, play: playing });
      });
    return true;
  }

  /** A fatal error: the element stops, the message shows; play tries the track again. */
  #stopped(message: string): void {
    this.error.value = message;
    this.#audio?.pause();
    this.playing.value = false;
  }

  /**
   * The track's waveform, and its loudness and artist when the list it came from did not carry
   * them (a search result), read beside the stream (both cached at the edge).
   */
  async #details(item: QueueItem, load: number): Promise<void> {
    const client = api();
    const path = { params: { path: { id: item.id } } };
    const known = item.gainDb !== undefined && item.artist !== null;
    const [track, waveform] = await Promise.allSettled([
      known ? null : client.GET("/api/v1/tracks/{id}", path).then(unwrap),
      client.GET("/api/v1/tracks/{id}/waveform", path).then(unwrap),
    ]);
    if (load !== this.#load) return;
    if (track.status === "fulfilled" && track.value) {
      const t = track.value;
      this.gainDb.value = t.loudness?.gainDb ?? null;
      if (t.duration && !this.duration.value) this.duration.value = t.duration;
      this.#applyVolume();
      // A search result carries no artist name: the track's own read completes the queue entry.
      const state = this.state.value;
      const current = state.items[state.index];
      if (current && current.id === t.id && !current.artist) {
        const { id, username, displayName } = t.artist;
        const artist = { id, username, displayName };
        const complete = { ...current, artist };
        const items = state.items.map((q, j) => (j === state.index ? complete : q));
        this.state.value = { ...state, items };
        showTrack(complete);
      }
    }
    if (waveform.status === "fulfilled") this.peaks.value = waveform.value.peaks;
  }

  /** Web Audio for the loudness gain (a boost needs more than the element's volume of 1). */
  #startGraph(): void {
    if (this.#graph !== undefined || !this.#audio) return;
    try {
      const context = new AudioContext();
      const gain = context.createGain();
      context.createMediaElementSource(this.#audio).connect(gain).connect(context.destination);
      this.#graph = { context, gain };
    } catch {
      this.#graph = null; // Without Web Audio: cuts through the volume, no boosts.
    }
    this.#applyVolume();
  }

  #applyVolume(): void {
    const audio = this.#audio;
    if (!audio) return;
    const factor = this.normalise.value ? gainFactor(this.gainDb.value) : 1;
    audio.muted = this.muted.value;
    if (this.#graph) {
      audio.volume = this.volume.value;
      this.#graph.gain.gain.value = factor;
    } else {
      audio.volume = this.volume.value * Math.min(1, factor);
    }
  }

  /** Reports this play of the current track once enough of it was heard (heard.ts). */
  #countPlay(): void {
    const item = this.current.value;
    if (this.#listened || !item) return;
    const length = this.#audio?.duration;
    if (!this.#heard.counts(Number.isFinite(length) ? length : item.duration)) return;
    this.#listened = true;
    void reportPlay(item);
  }
}

export const player = new Player();

/**
 * hls.js (its light build, ~115 KiB gzip) is its own chunk, kept out of the first load: fetched
 * once the page is idle after it (or by the first play, whichever comes first), so a play rarely
 * waits for it.
 */
export function prefetchHls(): void {
  const load = () => void import("hls.js/light");
  if (typeof requestIdleCallback === "function") requestIdleCallback(load, { timeout: 3_000 });
  else setTimeout(load, 1_500);
}
