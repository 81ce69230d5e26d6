import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LogFn } from "./log.ts";
import { postgresUser } from "./postgres-binaries.ts";
import { type ManagedProcess, startProcessUntilReady } from "./process.ts";

export interface PoolerHandle {
  /** The same database, user and password as the target, through the pooler. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * The `pgbouncer` binary (scripts/setup.sh installs it through apt), or undefined. Debian puts it
 * in /usr/sbin, which is not on every user's PATH.
 */
export async function findPgbouncer(): Promise<string | undefined> {
  for (const candidate of ["/usr/sbin/pgbouncer", "pgbouncer"]) {
    const works = await promisify(execFile)(candidate, ["--version"]).then(
      () => true,
      () => false,
    );
    if (works) return candidate;
  }
  return undefined;
}

/**
 * PgBouncer in transaction mode in front of Postgres: what Neon's pooled endpoint is, and what the
 * Worker connects through in production (docs/scale-out.md). The Worker opens connections per
 * request; without a pooler each is a new Postgres backend (fork, catalog caches, the unaccent
 * rules and the stemmer loaded again: 24 ms of server CPU per connection on a 2-core machine,
 * 40–50 ms more for its first search), with one each is a socket to PgBouncer and a backend
 * already warm. Clients send the password in clear text over loopback, as they do to the local
 * Postgres (see writeHba in postgres.ts). Runs as the Postgres system user when we are root
 * (PgBouncer refuses root).
 */
export async function startPooler(options: {
  /** The binary: findPgbouncer(). */
  pgbouncer: string;
  port: number;
  /** The Postgres URL the pooled connections go to. */
  target: string;
  log: LogFn;
}): Promise<PoolerHandle> {
  const target = new URL(options.target);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const dir = await mkdtemp(join(tmpdir(), "edge-music-pooler-"));
  await chmod(dir, 0o755);
  const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
  await writeFile(join(dir, "users.txt"), `${quote(user)} ${quote(password)}\n`, { mode: 0o644 });
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "; Written by the stack (stack/src/pooler.ts) for one run.",
      "[databases]",
      `* = host=${target.hostname.replace(/^\[(.*)\]$/, "$1")} port=${target.port || "5432"}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${options.port}`,
      "unix_socket_dir =",
      // The pooler grants no more than the server: the password of the URL, or none when the
      // server itself lets this user in without one (a local Postgres with trust).
      `auth_type = ${password ? "plain" : "trust"}`,
      `auth_file = ${join(dir, "users.txt")}`,
      "pool_mode = transaction",
      // Server connections per database and user; clients beyond them wait in PgBouncer's queue
      // for the next free one (transactions here are milliseconds) instead of starting backends.
      "default_pool_size = 40",
      "max_client_conn = 5000",
      // Client drivers send these; PgBouncer would refuse the connection otherwise.
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const runAs = await postgresUser();
  let proc: ManagedProcess;
  try {
    proc = await startProcessUntilReady(options.pgbouncer, [join(dir, "pgbouncer.ini")], {
      ...(runAs ?? {}),
      log: options.log,
      ready: (line) => line.includes(`listening on 127.0.0.1:${options.port}`),
      name: "pgbouncer",
      timeoutMs: 20_000,
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = new URL(options.target);
  url.port = String(options.port);
  return {
    url: url.toString(),
    port: options.port,
    async stop() {
      await proc.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
