export * from "./audio-processing.ts";
export * from "./redis-url.ts";
