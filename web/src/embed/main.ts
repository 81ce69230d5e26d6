// The embeddable player (/embed/{tracks,albums,playlists}/{id}, ADR 0027): the cover, the title
// and who made it, play/pause and seek over the waveform, the list of an album or a playlist, and
// a link to the full page. Framed by any site; no cookies, no storage, no framework: it stays
// small (web/test/embed-bundle.test.ts), hls.js comes with the first play.
import { downsample } from "../player/queue.ts";
import { formatTime } from "../ui/format.ts";
import { type EmbedItem, type EmbedTrack, itemOfPath, loadItem, read } from "./load.ts";
import { EmbedAudio } from "./player.ts";
import "./embed.css";

const BARS = 120;
const SVG = "http://www.w3.org/2000/svg";

const root = document.getElementById("embed") as HTMLElement;

/** An element with attributes and children; text children are text, never HTML. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const PLAY = "M8 5v14l11-7z";
const PAUSE = "M6 5h4v14H6zM14 5h4v14h-4z";

function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS(SVG, "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

function showMessage(text: string): void {
  root.replaceChildren(h("p", { class: "message", role: "alert" }, text));
  root.removeAttribute("aria-busy");
}

/** The waveform's bars as one path (the played part drawn again, clipped). */
function wavePath(bars: number[]): string {
  return bars
    .map((peak, i) => {
      const height = Math.max(2, peak * 96);
      return `M${i + 0.15} ${50 - height / 2}h0.7v${height}h-0.7z`;
    })
    .join("");
}

function render(item: EmbedItem): void {
  const page = `/${item.kind}/${item.id}`;
  const cover = item.cover
    ? h("img", { class: "cover", src: item.cover, alt: `Cover of ${item.title}` })
    : h("div", { class: "cover blank", "aria-hidden": "true" });
  const play = h("button", { type: "button", class: "play", "aria-label": "Play" }, icon(PLAY));
  const title = h(
    "a",
    { class: "title", href: page, target: "_blank", rel: "noopener" },
    item.title,
  );
  const byline = item.byline
    ? item.bylineHref
      ? h("a", { href: item.bylineHref, target: "_blank", rel: "noopener" }, item.byline)
      : h("span", {}, item.byline)
    : "";
  const now = h("span", { class: "time" }, "0:00");
  const total = h("span", { class: "time" }, formatTime(item.tracks[0]?.duration));
  const seek = h("input", {
    type: "range",
    "aria-label": "Seek",
    min: "0",
    max: String(Math.round(item.tracks[0]?.duration ?? 0)),
    step: "1",
    value: "0",
  });
  const wave = document.createElementNS(SVG, "svg");
  wave.setAttribute("viewBox", `0 0 ${BARS} 100`);
  wave.setAttribute("preserveAspectRatio", "none");
  wave.setAttribute("aria-hidden", "true");
  wave.classList.add("wave");
  const track = h("div", { class: "seek-track" }, wave, seek);
  const status = h("p", { class: "status", role: "status" });
  const site = h(
    "a",
    { class: "site", href: page, target: "_blank", rel: "noopener" },
    "Open in Edge Music",
  );
  const head = h(
    "div",
    { class: "head" },
    cover,
    h(
      "div",
      { class: "info" },
      h("h1", {}, title),
      h("p", { class: "byline" }, byline),
      h("div", { class: "controls" }, play, now, track, total),
      h("p", { class: "foot" }, site, status),
    ),
  );
  root.replaceChildren(head);

  const player = new EmbedAudio((message) => {
    status.textContent = message;
  });
  const audio = player.audio;
  let current = 0;
  const list =
    item.kind === "tracks"
      ? null
      : h("ol", { class: "list", "aria-label": `Tracks of ${item.title}` });
  const rows: HTMLButtonElement[] = [];

  const setPlaying = (playing: boolean) => {
    play.replaceChildren(icon(playing ? PAUSE : PLAY));
    play.setAttribute("aria-label", playing ? "Pause" : "Play");
  };
  audio.addEventListener("play", () => setPlaying(true));
  audio.addEventListener("pause", () => setPlaying(false));
  audio.addEventListener("timeupdate", () => {
    now.textContent = formatTime(audio.currentTime);
    seek.value = String(Math.floor(audio.currentTime));
    seek.setAttribute(
      "aria-valuetext",
      `${formatTime(audio.currentTime)} of ${formatTime(audio.duration || null)}`,
    );
    drawPlayed();
  });
  audio.addEventListener("durationchange", () => {
    if (Number.isFinite(audio.duration)) {
      seek.max = String(Math.round(audio.duration));
      total.textContent = formatTime(audio.duration);
    }
  });
  audio.addEventListener("ended", () => {
    if (current + 1 < item.tracks.length) void start(current + 1);
  });
  seek.addEventListener("input", () => {
    audio.currentTime = Number(seek.value);
  });

  let bars: number[] | null = null;
  const drawPlayed = () => {
    const clip = wave.querySelector("rect");
    const duration = audio.duration || item.tracks[current]?.duration || 0;
    if (clip && duration > 0) {
      clip.setAttribute(
        "width",
        String((Math.min(1, audio.currentTime / duration) * BARS).toFixed(2)),
      );
    }
  };
  const drawWave = async (t: EmbedTrack) => {
    wave.replaceChildren();
    bars = null;
    try {
      const waveform = await read<{ peaks: number[] }>(`/api/v1/tracks/${t.id}/waveform`);
      if (item.tracks[current]?.id !== t.id) return;
      bars = downsample(waveform.peaks, BARS);
    } catch {
      return;
    }
    const d = wavePath(bars);
    const clipId = `played-${t.id}`;
    wave.innerHTML = `<defs><clipPath id="${clipId}"><rect x="0" y="0" width="0" height="100"/></clipPath></defs><path class="bars" d="${d}"/><path class="bars played" d="${d}" clip-path="url(#${clipId})"/>`;
    drawPlayed();
  };

  const select = (index: number) => {
    current = index;
    const t = item.tracks[index];
    if (!t) return;
    total.textContent = formatTime(t.duration);
    seek.max = String(Math.round(t.duration ?? 0));
    rows.forEach((row, i) => {
      if (i === index) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    });
    void drawWave(t);
  };
  const start = async (index: number) => {
    if (index !== current) select(index);
    const t = item.tracks[index];
    if (!t) return;
    status.textContent = "";
    try {
      await player.play(t.id);
    } catch (error) {
      if ((error as Error).name !== "AbortError") status.textContent = "Playback did not start.";
    }
  };
  play.addEventListener("click", () => {
    if (!audio.paused) player.pause();
    else void start(current);
  });

  if (list) {
    item.tracks.forEach((t, i) => {
      const row = h(
        "button",
        { type: "button", "aria-label": `Play ${t.title} by ${t.artist}` },
        h("span", { class: "n" }, String(i + 1)),
        h("span", { class: "t" }, t.title),
        h("span", { class: "a" }, t.artist),
        h("span", { class: "d" }, formatTime(t.duration)),
      );
      row.addEventListener("click", () => void start(i));
      rows.push(row);
      list.append(h("li", {}, row));
    });
    root.append(list);
  }
  if (item.tracks.length === 0) {
    play.disabled = true;
    seek.disabled = true;
    status.textContent = "Nothing to play yet.";
  } else {
    select(0);
  }
  document.title = `${item.title}${item.byline ? ` · ${item.byline}` : ""} · Edge Music`;
  root.removeAttribute("aria-busy");
}

const item = itemOfPath(location.pathname);
if (!item) {
  showMessage("Nothing to play here.");
} else {
  loadItem(item.kind, item.id).then(render, () =>
    showMessage("This is not available: it may be private, or gone."),
  );
}
