export * from "./audio-format.ts";
export * from "./audio-names.ts";
export * from "./audio-processing.ts";
export * from "./loudness.ts";
export * from "./redis-url.ts";
export * from "./track-events.ts";
export * from "./waveform.ts";
