export * from "./audio-processing.ts";
export * from "./loudness.ts";
export * from "./redis-url.ts";
