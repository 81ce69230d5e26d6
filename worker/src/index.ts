import { env } from "cloudflare:workers";
import { createApp } from "./app.ts";
import { openConnections } from "./connections/index.ts";
import { type Bindings, parseEnv } from "./env.ts";
import { abortExpiredUploads } from "./features/tracks/direct-upload/service.ts";
import { createLogger, type LogLevel } from "./logger.ts";

// Validate the configuration when the isolate starts, so a bad deploy fails loudly once
// (wrangler dev and the deploy show the list of problems) instead of answering 500s.
parseEnv(env as Bindings);

const app = createApp();

/** The hourly cron trigger (wrangler.toml): direct uploads left incomplete are aborted. */
export async function scheduled(
  _controller: ScheduledController,
  bindings: Bindings,
  ctx: ExecutionContext,
): Promise<void> {
  const config = parseEnv(bindings);
  const log = createLogger({ task: "scheduled" }, config.LOG_LEVEL as LogLevel);
  const connections = openConnections(config, log, () => undefined);
  try {
    const aborted = await abortExpiredUploads({
      db: connections.db(),
      env: config,
      log,
      now: new Date(),
    });
    if (aborted > 0) log.info("expired uploads aborted", { aborted });
  } finally {
    ctx.waitUntil(connections.close());
  }
}

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<Bindings>;
