import { loadConfig } from "./config.ts";
import { log } from "./log.ts";
import { processJob } from "./processor.ts";
import { startTranscoder } from "./service.ts";

const config = loadConfig();
const transcoder = startTranscoder(config, processJob);
log.info("transcoder started", { queue: config.QUEUE_NAME, concurrency: config.CONCURRENCY });

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  await transcoder.close();
  log.info("stopped");
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
