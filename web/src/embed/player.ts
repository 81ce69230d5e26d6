// The embed's playback: one <audio>, fed by hls.js loaded on the first play (its light build, the
// player's chunk), or by the browser's own HLS where MediaSource is missing (Safari on iOS).
// Requests go without cookies: the embed is the same for everyone, signed in or not.
import type HlsType from "hls.js";

export class EmbedAudio {
  readonly audio: HTMLAudioElement;
  #hls: HlsType | undefined;
  #loaded: string | null = null;

  constructor(onError: (message: string) => void) {
    this.audio = new Audio();
    this.audio.preload = "none";
    // In the page (never shown: no controls), where the page's tests find it.
    this.audio.id = "embed-audio";
    document.body.append(this.audio);
    this.audio.addEventListener("error", () => {
      if (!this.#hls && this.audio.error) onError("The stream could not be read.");
    });
    this.onError = onError;
  }

  private onError: (message: string) => void;

  /** Plays the track, loading its stream first when it is not the one loaded. */
  async play(trackId: string): Promise<void> {
    if (this.#loaded !== trackId) await this.#load(trackId);
    await this.audio.play();
  }

  pause(): void {
    this.audio.pause();
  }

  async #load(trackId: string): Promise<void> {
    const master = `/api/v1/tracks/stream/${trackId}/hls/master.m3u8`;
    this.#hls?.destroy();
    this.#hls = undefined;
    this.#loaded = trackId;
    const { default: Hls, FetchLoader } = await import("hls.js/light");
    if (Hls.isSupported()) {
      const hls = new Hls({
        // fetch rather than XMLHttpRequest, so that no cookie goes with the stream's requests.
        loader: FetchLoader,
        fetchSetup: (context, init) => new Request(context.url, { ...init, credentials: "omit" }),
      });
      this.#hls = hls;
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) this.onError("The stream could not be played.");
      });
      hls.loadSource(master);
      hls.attachMedia(this.audio);
    } else if (this.audio.canPlayType("application/vnd.apple.mpegurl")) {
      this.audio.src = master;
    } else {
      this.onError("This browser cannot play HLS streams.");
    }
  }
}
