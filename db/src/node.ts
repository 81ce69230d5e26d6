// Node-only setup for the Neon driver (the transcoder, scripts, tests). Workers have a global
// WebSocket and must not import this file.
import { neonConfig } from "@neondatabase/serverless";
import ws from "ws";

neonConfig.webSocketConstructor = ws;
// Coalescing holds each batch of writes for a setTimeout(0), at least 1 ms per round trip in Node.
neonConfig.coalesceWrites = false;

export { type CreateDbOptions, createDb, type Database, type DbHandle } from "./client";
