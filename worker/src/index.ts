import { env } from "cloudflare:workers";
import { createApp } from "./app.ts";
import { openConnections } from "./connections/index.ts";
import { type Bindings, parseEnv } from "./env.ts";
import { consumePlays, drainPlayInbox } from "./features/plays/consumer.ts";
import { abortExpiredUploads } from "./features/tracks/direct-upload/service.ts";
import { recomputeTrending } from "./features/tracks/trending/service.ts";
import { createLogger, type LogLevel } from "./logger.ts";

// Validate the configuration when the isolate starts, so a bad deploy fails loudly once
// (wrangler dev and the deploy show the list of problems) instead of answering 500s.
parseEnv(env as Bindings);

const app = createApp();

/** The cron that runs every minute (wrangler.toml); any other is the hourly one. */
// Not exported: every named export of the entry module must be a handler (workerd refuses a string).
const EVERY_MINUTE = "* * * * *";

/**
 * The cron triggers (wrangler.toml), told apart by `controller.cron`: every minute, plays the
 * queue refused are counted from the inbox and trending is recomputed (ADR 0028); hourly, direct
 * uploads left incomplete are aborted.
 */
export async function scheduled(
  controller: ScheduledController,
  bindings: Bindings,
  ctx: ExecutionContext,
): Promise<void> {
  const config = parseEnv(bindings);
  const log = createLogger(
    { task: "scheduled", cron: controller.cron },
    config.LOG_LEVEL as LogLevel,
  );
  const connections = openConnections(config, log, () => undefined);
  const now = new Date(controller.scheduledTime || Date.now());
  try {
    if (controller.cron === EVERY_MINUTE) {
      const taken = await drainPlayInbox(connections.db(), now);
      if (taken > 0) log.info("plays counted from the inbox", { taken });
      await recomputeTrending(connections.db(), now);
      return;
    }
    const aborted = await abortExpiredUploads({ db: connections.db(), env: config, log, now });
    if (aborted > 0) log.info("expired uploads aborted", { aborted });
  } finally {
    ctx.waitUntil(connections.close());
  }
}

/** The plays queue's consumer (wrangler.toml `[[queues.consumers]]`, ADR 0028). */
export async function queue(
  batch: MessageBatch<unknown>,
  bindings: Bindings,
  ctx: ExecutionContext,
): Promise<void> {
  const config = parseEnv(bindings);
  const log = createLogger({ task: "plays" }, config.LOG_LEVEL as LogLevel);
  const connections = openConnections(config, log, () => undefined);
  try {
    await consumePlays(batch, connections.db(), log);
  } finally {
    ctx.waitUntil(connections.close());
  }
}

export default { fetch: app.fetch, scheduled, queue } satisfies ExportedHandler<Bindings>;
