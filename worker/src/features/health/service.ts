import { configurationProblems } from "../../env.ts";
import { describeError } from "../../logger.ts";
import type { RequestDeps } from "../../request-deps.ts";

export type Part = "configuration" | "postgres" | "redis" | "storage";

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
  ctx: Pick<RequestDeps, "db" | "redis" | "storage" | "log" | "env">,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const problems = configurationProblems(ctx.env);
  const configuration: Check =
    problems.length === 0
      ? { status: "up", latencyMs: 0 }
      : { status: "down", latencyMs: 0, reason: problems.join("; ") };
  if (problems.length > 0) ctx.log.error("the deployment is not configured to serve", { problems });
  const probes: Record<Exclude<Part, "configuration">, () => Promise<unknown>> = {
    postgres: () => ctx.db.execute("select 1"),
    redis: () => ctx.redis.ping(),
    storage: () => ctx.storage.ping(),
  };
  const parts = Object.keys(probes) as Array<keyof typeof probes>;
  const probed = await Promise.all(
    parts.map(async (part) => [part, await timed(part, probes[part], timeoutMs, ctx.log)] as const),
  );
  const entries = [["configuration", configuration] as const, ...probed];
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
