import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InfraInfo } from "./infra.ts";
import type { LogFn } from "./log.ts";
import { type ManagedProcess, startProcess } from "./process.ts";
import { TRANSCODER_BUNDLE_ENV } from "./transcoder-bundle.ts";

const transcoderDir = fileURLToPath(new URL("../../transcoder", import.meta.url));

/**
 * The transcoder's variables against a local stack; `env` adds to them or overrides them.
 * `inherited` goes under them: a caller's own environment (`./run dev` passes its shell's, so that
 * CONCURRENCY and the like set there reach the transcoder); by default only PATH and HOME.
 */
export function stackTranscoderVars(
  infra: InfraInfo,
  env: Record<string, string> = {},
  inherited: NodeJS.ProcessEnv = {},
): Record<string, string> {
  const kept = Object.entries(inherited).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? tmpdir(),
    ...Object.fromEntries(kept),
    REDIS_URL: infra.redisUrl,
    DATABASE_URL: infra.databaseUrl,
    NEON_WS_PROXY: infra.neonWsProxy,
    S3_ENDPOINT: infra.s3.endpoint,
    S3_REGION: infra.s3.region,
    S3_BUCKET: infra.s3.bucket,
    S3_ACCESS_KEY_ID: infra.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: infra.s3.secretAccessKey,
    ...env,
  };
}

/**
 * `node --import tsx transcoder/src/main.ts` against a local stack, configured from its environment
 * as in production, in a process group of its own (stopping it stops its ffmpeg runs too). In a
 * test run whose global setup built the transcoder's bundle (EDGE_MUSIC_TRANSCODER_BUNDLE), that
 * bundle is run instead, as the container image runs it.
 */
export function startTranscoderProcess(
  infra: InfraInfo,
  options: { env?: Record<string, string>; inherited?: NodeJS.ProcessEnv; log: LogFn },
): ManagedProcess {
  const bundle = process.env[TRANSCODER_BUNDLE_ENV];
  const args = bundle ? [bundle] : ["--import", "tsx", join(transcoderDir, "src/main.ts")];
  return startProcess(process.execPath, args, {
    cwd: transcoderDir,
    env: stackTranscoderVars(infra, options.env, options.inherited),
    log: options.log,
  });
}
