import { env } from "cloudflare:workers";
import { createApp } from "./app.ts";
import { type Bindings, parseEnv } from "./env.ts";

// Validate the configuration when the isolate starts, so a bad deploy fails loudly once
// (wrangler dev and the deploy show the list of problems) instead of answering 500s.
parseEnv(env as Bindings);

export default createApp();
