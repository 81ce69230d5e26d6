import { z } from "zod";

/** Bindings and variables as Cloudflare hands them to the Worker. */
export interface Bindings {
  MEDIA?: R2Bucket;
  DATABASE_URL?: string;
  NEON_WS_PROXY?: string;
  REDIS_URL?: string;
  PUBLIC_BASE_URL?: string;
  FRONTEND_URL?: string;
  LOG_LEVEL?: string;
  STORAGE_DRIVER?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_BUCKET?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
}

const url = (protocols: string[]) =>
  z.url().refine((value) => protocols.includes(new URL(value).protocol), {
    message: `must use one of ${protocols.join(", ")}`,
  });

const baseSchema = z.object({
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  NEON_WS_PROXY: url(["ws:", "wss:"]).optional(),
  REDIS_URL: url(["redis:", "rediss:"]),
  PUBLIC_BASE_URL: url(["http:", "https:"]),
  FRONTEND_URL: url(["http:", "https:"]),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
});

const storageSchema = z.discriminatedUnion("STORAGE_DRIVER", [
  z.object({
    STORAGE_DRIVER: z.literal("r2"),
    MEDIA: z.custom<R2Bucket>((value) => typeof value === "object" && value !== null, {
      message: "the R2 binding MEDIA is missing",
    }),
  }),
  z.object({
    STORAGE_DRIVER: z.literal("s3"),
    S3_ENDPOINT: url(["http:", "https:"]),
    S3_REGION: z.string().min(1).default("auto"),
    S3_BUCKET: z.string().min(1),
    S3_ACCESS_KEY_ID: z.string().min(1),
    S3_SECRET_ACCESS_KEY: z.string().min(1),
  }),
]);

export const EnvSchema = z.intersection(baseSchema, storageSchema);
export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid Worker configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

const parsed = new WeakMap<object, Env>();

/**
 * Validates the bindings once per env object (Workers reuse it across requests of an isolate).
 * Never includes secret values in the error, only the variable names and what is wrong.
 */
export function parseEnv(bindings: Bindings): Env {
  const cached = parsed.get(bindings);
  if (cached) return cached;
  const result = EnvSchema.safeParse({ STORAGE_DRIVER: "r2", ...bindings });
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "env"}: ${issue.message}`),
    );
  }
  parsed.set(bindings, result.data);
  return result.data;
}
