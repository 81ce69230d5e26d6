// hls.js's light build (no EME, subtitles, alternate audio, CMCD, content steering, interstitials:
// none of which an audio-only AAC stream uses) ships without its own declarations; its API is the
// full build's.
declare module "hls.js/light" {
  export * from "hls.js";
  export { default } from "hls.js";
}
