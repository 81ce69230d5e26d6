import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReleaseError } from "./errors.ts";
import { run } from "./exec.ts";
import { sortReleaseTags } from "./version.ts";

/** Identity for local-only commits (the dry run's merge); real commits are made by the GitHub API. */
const LOCAL_IDENTITY = ["-c", "user.name=release dry run", "-c", "user.email=release@localhost"];

export async function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  return (await gitRaw(cwd, args, env)).trim();
}

/** git's stdout untouched (porcelain output starts with meaningful spaces). */
async function gitRaw(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await run("git", [...LOCAL_IDENTITY, ...args], {
    cwd,
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  if (result.code !== 0) {
    throw new ReleaseError(
      `git ${args.join(" ")} failed (${result.code}): ${result.stderr.trim()}`,
    );
  }
  return result.stdout;
}

/** Like git(), but a failure is an answer (null), not an error. */
export async function gitMaybe(cwd: string, args: string[]): Promise<string | null> {
  const result = await run("git", args, { cwd });
  return result.code === 0 ? result.stdout.trim() : null;
}

/** Release tags known locally, newest first by version (never lexicographic). */
export async function listReleaseTags(cwd: string): Promise<string[]> {
  const out = await git(cwd, ["tag", "--list", "v*"]);
  return sortReleaseTags(out.split("\n").filter(Boolean));
}

export interface FileChanges {
  additions: string[];
  deletions: string[];
}

/** Uncommitted changes of the work tree, as the file additions/deletions of one commit. */
export async function worktreeChanges(cwd: string): Promise<FileChanges> {
  const out = await gitRaw(cwd, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  const entries = out.split("\0").filter(Boolean);
  const changes: FileChanges = { additions: [], deletions: [] };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] ?? "";
    const status = entry.slice(0, 2);
    const path = entry.slice(3);
    if (status.includes("R") || status.includes("C")) {
      // -z puts a rename's source in the next entry.
      const source = entries[++i];
      if (source && status.includes("R")) changes.deletions.push(source);
      changes.additions.push(path);
    } else if (status.includes("D")) {
      changes.deletions.push(path);
    } else {
      changes.additions.push(path);
    }
  }
  changes.additions.sort();
  changes.deletions.sort();
  return changes;
}

/**
 * The tree object the work tree would commit to, computed in a throw-away index so the real index
 * (and whatever a person staged) is left alone.
 */
export async function worktreeTree(cwd: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "release-index-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    await git(cwd, ["read-tree", "HEAD"], env);
    await git(cwd, ["add", "--all"], env);
    return await git(cwd, ["write-tree"], env);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function isClean(cwd: string): Promise<boolean> {
  return (await git(cwd, ["status", "--porcelain", "--untracked-files=normal"])) === "";
}
