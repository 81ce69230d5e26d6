import { describeError } from "../../logger.ts";
import type { RequestDeps } from "../../request-deps.ts";

export type Part = "postgres" | "redis" | "storage";

export interface Check {
  status: "up" | "down";
  latencyMs: number;
  /** A short, client-safe reason when down (no hosts, no credentials). */
  reason?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<Part, Check>;
}

export const CHECK_TIMEOUT_MS = 2_000;

/** Checks every dependency concurrently, each bounded by `timeoutMs`; logs why a part is down. */
export async function checkReadiness(
  ctx: Pick<RequestDeps, "db" | "redis" | "storage" | "log">,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const probes: Record<Part, () => Promise<unknown>> = {
    postgres: () => ctx.db.execute("select 1"),
    redis: () => ctx.redis.ping(),
    storage: () => ctx.storage.ping(),
  };
  const entries = await Promise.all(
    (Object.keys(probes) as Part[]).map(
      async (part) => [part, await timed(part, probes[part], timeoutMs, ctx.log)] as const,
    ),
  );
  const checks = Object.fromEntries(entries) as Record<Part, Check>;
  return { ready: entries.every(([, check]) => check.status === "up"), checks };
}

async function timed(
  part: Part,
  probe: () => Promise<unknown>,
  timeoutMs: number,
  log: RequestDeps["log"],
): Promise<Check> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { status: "up", latencyMs: Date.now() - started };
  } catch (error) {
    log.warn("readiness check failed", { part, ...describeError(error) });
    const reason =
      error instanceof Error && error.message.startsWith("no answer")
        ? error.message
        : "unreachable";
    return { status: "down", latencyMs: Date.now() - started, reason };
  } finally {
    clearTimeout(timer);
  }
}
