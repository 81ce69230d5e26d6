import { parseRedisUrl } from "@edge-music/contracts";
import { z } from "zod";

/** Bindings and variables as Cloudflare hands them to the Worker. */
export interface Bindings {
  MEDIA?: R2Bucket;
  /** The plays queue's producer (wrangler.toml; ADR 0028). */
  PLAYS?: Queue<unknown>;
  /** The web player's static assets (wrangler.toml `[assets]`): the pages the Worker rewrites. */
  ASSETS?: Fetcher;
  DATABASE_URL?: string;
  NEON_HTTP_ENDPOINT?: string;
  REDIS_URL?: string;
  PUBLIC_BASE_URL?: string;
  FRONTEND_URL?: string;
  LOG_LEVEL?: string;
  DEPLOYMENT?: string;
  PASSWORD_HASH_COST?: string;
  STORAGE_DRIVER?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_BUCKET?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  JWT_SECRET?: string;
  ENCRYPTION_KEY?: string;
  ENCRYPTION_KEYS_PREVIOUS?: string;
  ALLOWED_ORIGINS?: string;
  OAUTH_GOOGLE_CLIENT_ID?: string;
  OAUTH_GOOGLE_CLIENT_SECRET?: string;
  OAUTH_GOOGLE_AUTHORIZE_URL?: string;
  OAUTH_GOOGLE_TOKEN_URL?: string;
  OAUTH_GOOGLE_PROFILE_URL?: string;
  OAUTH_FACEBOOK_CLIENT_ID?: string;
  OAUTH_FACEBOOK_CLIENT_SECRET?: string;
  OAUTH_FACEBOOK_AUTHORIZE_URL?: string;
  OAUTH_FACEBOOK_TOKEN_URL?: string;
  OAUTH_FACEBOOK_PROFILE_URL?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  MAX_UPLOAD_BYTES?: string;
  MAX_DIRECT_UPLOAD_BYTES?: string;
  MAX_OPEN_DIRECT_UPLOADS?: string;
  MAX_OPEN_DIRECT_UPLOAD_BYTES?: string;
  MAX_DIRECT_UPLOADS_PER_DAY?: string;
  STREAM_ALLOWED_ORIGINS?: string;
  EVENTS_HEARTBEAT_SECONDS?: string;
  EVENTS_LIFETIME_SECONDS?: string;
  EVENTS_CHECK_SECONDS?: string;
}

const url = (protocols: string[]) =>
  z.url().refine((value) => protocols.includes(new URL(value).protocol), {
    message: `must use one of ${protocols.join(", ")}`,
  });

const baseSchema = z.object({
  // The plays queue (ADR 0028). Optional: without it a play report goes to the play inbox
  // table, which the per-minute cron counts.
  PLAYS: z
    .custom<Queue<unknown>>((value) => typeof value === "object" && value !== null)
    .optional(),
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  // Local dev bridge's HTTP SQL endpoint (production uses Neon's own, derived from the host).
  NEON_HTTP_ENDPOINT: url(["http:", "https:"]).optional(),
  // redis[s]:// for one server, redis[s]+cluster:// for a Redis Cluster (a seed node); see
  // contracts' parseRedisUrl, which the transcoder reads the same way.
  REDIS_URL: z.string().superRefine((value, ctx) => {
    try {
      parseRedisUrl(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  }),
  PUBLIC_BASE_URL: url(["http:", "https:"]),
  FRONTEND_URL: url(["http:", "https:"]),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  // What this deployment is: staging and production must be configured completely (see
  // configurationProblems); development may leave mail out (messages then go to the log).
  DEPLOYMENT: z.enum(["development", "staging", "production"]).default("development"),
  // How costly a new password hash is (security/password.ts): "standard" (argon2id, 19 MiB, two
  // passes) everywhere; "minimal-for-tests" only for the Worker's own test suite, where a
  // thousand sign-ups would otherwise spend a third of its CPU hashing. Refused outside
  // development (below): no deployment can store weak hashes.
  PASSWORD_HASH_COST: z.enum(["standard", "minimal-for-tests"]).default("standard"),
  // Signs access, refresh and OAuth-state tokens (HS256). 32+ characters of randomness.
  JWT_SECRET: z.string().min(32, "must be at least 32 characters"),
  // AES-256-GCM key for 2FA secrets at rest: 32 random bytes, base64. Separate from JWT_SECRET
  // so that rotating the signing secret (signs everyone out) keeps 2FA enrolments readable.
  ENCRYPTION_KEY: z
    .string()
    .refine((value) => base64Length(value) === 32, { message: "must be 32 bytes in base64" }),
  // Keys that sealed secrets before ENCRYPTION_KEY became current (comma-separated, same form):
  // they still open what they sealed; nothing new is sealed with them.
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().refine((value) => base64Length(value) === 32, {
          message: "each must be 32 bytes in base64",
        }),
      ),
    ),
  // Origins allowed to send state-changing requests besides FRONTEND_URL and PUBLIC_BASE_URL.
  ALLOWED_ORIGINS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(url(["http:", "https:"]))),
  OAUTH_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OAUTH_GOOGLE_AUTHORIZE_URL: url(["http:", "https:"]).default(
    "https://accounts.google.com/o/oauth2/v2/auth",
  ),
  OAUTH_GOOGLE_TOKEN_URL: url(["http:", "https:"]).default("https://oauth2.googleapis.com/token"),
  OAUTH_GOOGLE_PROFILE_URL: url(["http:", "https:"]).default(
    "https://openidconnect.googleapis.com/v1/userinfo",
  ),
  OAUTH_FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_FACEBOOK_CLIENT_SECRET: z.string().min(1).optional(),
  OAUTH_FACEBOOK_AUTHORIZE_URL: url(["http:", "https:"]).default(
    "https://www.facebook.com/v19.0/dialog/oauth",
  ),
  OAUTH_FACEBOOK_TOKEN_URL: url(["http:", "https:"]).default(
    "https://graph.facebook.com/v19.0/oauth/access_token",
  ),
  OAUTH_FACEBOOK_PROFILE_URL: url(["http:", "https:"]).default(
    "https://graph.facebook.com/v19.0/me",
  ),
  // An HTTP mail API speaking Resend's shape; without a key, reset links go to the log (dev).
  MAIL_API_URL: url(["http:", "https:"]).default("https://api.resend.com/emails"),
  MAIL_API_KEY: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default("Edge Music <no-reply@edge-music.example>"),
  // Origins whose players may fetch HLS and audio: "*" (default) or a comma-separated list.
  STREAM_ALLOWED_ORIGINS: z.string().default("*"),
  // Audio uploads; keep it at or below the plan's request limit (100 MB on Free and Pro).
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(500 * 1024 * 1024)
    .default(100 * 1024 * 1024),
  // Direct (multipart) uploads straight to storage: the largest source accepted.
  MAX_DIRECT_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 ** 3)
    .default(2 * 1024 ** 3),
  // Per artist: direct uploads open at once (started, not completed, aborted or past their day;
  // else 409), the bytes they declare (default 4 × MAX_DIRECT_UPLOAD_BYTES, keep it at least
  // that; else 409), and uploads started in 24 hours (else 429). See features/uploads/limits.ts.
  MAX_OPEN_DIRECT_UPLOADS: z.coerce.number().int().min(1).max(1000).default(10),
  MAX_OPEN_DIRECT_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .optional(),
  MAX_DIRECT_UPLOADS_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(50),
  // A conversion's event stream sends a comment this often when nothing happens, well under the
  // idle timeouts of proxies and of Cloudflare (100 s).
  EVENTS_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(60).default(15),
  // A conversion's event stream ends after this long (the client resumes with Last-Event-ID), so
  // that no stream holds its Redis connection for ever; and every this often while it is open,
  // one query checks that the track is still there and the session live (else it ends).
  EVENTS_LIFETIME_SECONDS: z.coerce.number().min(0.5).max(3600).default(300),
  EVENTS_CHECK_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
});

function base64Length(value: string): number {
  try {
    return atob(value).length;
  } catch {
    return -1;
  }
}

const storageSchema = z.discriminatedUnion("STORAGE_DRIVER", [
  z.object({
    STORAGE_DRIVER: z.literal("r2"),
    MEDIA: z.custom<R2Bucket>((value) => typeof value === "object" && value !== null, {
      message: "the R2 binding MEDIA is missing",
    }),
    // R2's S3 API for the same bucket (https://<account>.r2.cloudflarestorage.com): direct
    // uploads hand out presigned part URLs on it. Without it, POST /uploads answers 503.
    S3_ENDPOINT: url(["http:", "https:"]).optional(),
    S3_REGION: z.string().min(1).default("auto"),
    S3_BUCKET: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
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

export const EnvSchema = z.intersection(baseSchema, storageSchema).superRefine((env, ctx) => {
  if (env.DEPLOYMENT !== "development" && env.PASSWORD_HASH_COST !== "standard") {
    ctx.addIssue({
      code: "custom",
      path: ["PASSWORD_HASH_COST"],
      message: `must be "standard" outside development (DEPLOYMENT is ${env.DEPLOYMENT})`,
    });
  }
});
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

/** The keys that seal secrets at rest (see security/crypto.ts). */
export const sealingKeys = (env: Pick<Env, "ENCRYPTION_KEY" | "ENCRYPTION_KEYS_PREVIOUS">) => ({
  current: env.ENCRYPTION_KEY,
  previous: env.ENCRYPTION_KEYS_PREVIOUS,
});

/** Fewer distinct characters (or bytes) than this in a secret reads as a placeholder. */
const MIN_DISTINCT = 12;

/**
 * What keeps a staging or production deployment from serving safely: a missing mail key (reset
 * and verification links would go nowhere, or to the log), weak secrets (placeholders: too few
 * distinct characters), a half-configured identity provider. Empty in development. Names only,
 * never values.
 */
export function configurationProblems(env: Env): string[] {
  if (env.DEPLOYMENT === "development") return [];
  const problems: string[] = [];
  if (!env.MAIL_API_KEY) problems.push("MAIL_API_KEY is not set");
  if (new Set(env.JWT_SECRET).size < MIN_DISTINCT) problems.push("JWT_SECRET is weak");
  for (const [name, key] of [
    ["ENCRYPTION_KEY", env.ENCRYPTION_KEY],
    ...env.ENCRYPTION_KEYS_PREVIOUS.map((k) => ["ENCRYPTION_KEYS_PREVIOUS", k]),
  ] as const) {
    if (new Set(atob(key)).size < MIN_DISTINCT) problems.push(`${name} is weak`);
  }
  for (const provider of ["GOOGLE", "FACEBOOK"] as const) {
    const id = env[`OAUTH_${provider}_CLIENT_ID`];
    const secret = env[`OAUTH_${provider}_CLIENT_SECRET`];
    if (Boolean(id) !== Boolean(secret)) {
      problems.push(`OAUTH_${provider}_CLIENT_ID and _CLIENT_SECRET must be set together`);
    }
  }
  return problems;
}
