import { parseRedisUrl } from "@edge-music/contracts";
import { z } from "zod";

const ConfigSchema = z.object({
  /** `redis[s]://` for one server, `redis[s]+cluster://<seed node>` for a Redis Cluster. */
  REDIS_URL: z.string().superRefine((value, ctx) => {
    try {
      parseRedisUrl(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  }),
  DATABASE_URL: z.url(),
  NEON_WS_PROXY: z.url().optional(),
  CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default("auto"),
  S3_BUCKET: z.string().min(1).default("media"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * A storage request whose connection stays silent this long is abandoned and retried (the SDK's
   * default is to wait forever: one hung request would hold its job, and its lock, for good).
   */
  S3_SOCKET_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Longer sources are refused (a tiny FLAC can declare hours of silence). */
  MAX_DURATION_SECONDS: z.coerce.number().positive().default(1800),
  /** One ffmpeg run is killed after this long; the attempt then counts as failed and is retried. */
  FFMPEG_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(20 * 60_000),
  /** How often tracks stuck in PROCESSING without a queued job are looked for. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Tracks younger than this are left to the Worker's own Queue.add (it adds right after the insert). */
  RECONCILE_MIN_AGE_MS: z.coerce.number().int().min(0).default(120_000),
  /**
   * BullMQ's job lock (renewed every half of it) and its stalled-job check: a job whose
   * transcoder died is handed to another one within about lock + 2 × interval. BullMQ's defaults.
   */
  LOCK_DURATION_MS: z.coerce.number().int().min(1000).default(30_000),
  STALLED_INTERVAL_MS: z.coerce.number().int().min(1000).default(30_000),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Every variable the transcoder reads (deployment files are checked against it). */
export const CONFIG_KEYS = Object.keys(ConfigSchema.shape);

/** Reads the configuration once at start; a bad value stops the process with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid transcoder configuration:\n  - ${problems.join("\n  - ")}`);
  }
  return result.data;
}
