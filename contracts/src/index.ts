export * from "./audio-processing.ts";
