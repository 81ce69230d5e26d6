// The local stack of a seeded benchmark: infrastructure with migrations applied, then (after
// seeding, so that the two never share the CPUs) the real Worker, and accounts signed in to it.
// Everything started is stopped in reverse order, on success, on failure and on Ctrl-C, as in
// auth.bench.ts.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "@edge-music/db/migrate";
import { type DevWorker, type Infra, startInfra, startStackWorker } from "@edge-music/stack";

export interface Lifecycle {
  /** Registers what stops a started part; parts stop in reverse order. */
  defer(stop: () => Promise<unknown>): void;
  stopAll(): Promise<void>;
  tmp: string;
}

/** One shared stop: after Ctrl-C the main flow fails too, and its `finally` waits for it. */
export async function lifecycle(name: string): Promise<Lifecycle> {
  const stops: Array<() => Promise<unknown>> = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopAll().then(() => process.exit(130)));
  }
  const tmp = await mkdtemp(join(tmpdir(), `edge-music-bench-${name}-`));
  stops.push(() => rm(tmp, { recursive: true, force: true }));
  return { defer: (stop) => stops.push(stop), stopAll, tmp };
}

export async function startMigratedInfra(
  life: Lifecycle,
  options: { dbRttMs?: number } = {},
): Promise<Infra> {
  const infra = await startInfra(options);
  life.defer(infra.stop);
  await migrate(infra.databaseUrl);
  return infra;
}

/** The Worker of wrangler.toml against the stack (STORAGE_DRIVER=s3), as auth.bench.ts runs it. */
export async function startWorker(life: Lifecycle, infra: Infra): Promise<DevWorker> {
  const worker = await startStackWorker(infra, { tmp: life.tmp });
  life.defer(worker.stop);
  return worker;
}

export interface Account {
  id: string;
  email: string;
  password: string;
}

const authPost = (worker: DevWorker, path: string, body: object) =>
  fetch(`${worker.url}/api/v1/users/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "10.9.0.1" },
    body: JSON.stringify(body),
  });

/** A fresh user registered through the API. */
export async function registerUser(worker: DevWorker, label: string): Promise<Account> {
  const suffix = randomUUID().slice(0, 8);
  const account = { email: `${label}-${suffix}@bench.test`, password: `pw-${randomUUID()}` };
  const answer = await authPost(worker, "/register", {
    username: `${label}_${suffix}`,
    ...account,
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${await answer.text()}`);
  const { id } = (await answer.json()) as { id: string };
  return { id, ...account };
}

/** A `Cookie` header of a new session: access tokens live 5 minutes, so sign in per run. */
export async function signIn(worker: DevWorker, account: Account): Promise<string> {
  const answer = await authPost(worker, "/login", account);
  if (answer.status !== 200) throw new Error(`login: ${answer.status} ${await answer.text()}`);
  const access = answer.headers.getSetCookie().find((c) => c.startsWith("access_token="));
  if (!access) throw new Error("login set no access_token cookie");
  return access.split(";")[0] ?? "";
}

/** The machine's load (1, 5, 15 minutes): on a shared 2-core box, read the figures with it. */
export const loadLine = (when: string) =>
  `load average ${when}: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`;
