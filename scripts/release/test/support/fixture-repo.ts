import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "../../git.ts";

/**
 * A small monorepo shaped like ours (root product version, pnpm workspaces, changesets config),
 * pushed to a local bare "origin" with an integration (main) and a production branch.
 * Each test makes its own; nothing is shared.
 */
export interface Fixture {
  /** The working clone the scripts run in. */
  root: string;
  /** The bare repository standing in for GitHub's copy. */
  origin: string;
  write(files: Record<string, string>): Promise<void>;
  /** Commits the work tree on the local branch (not pushed). */
  commitAll(message: string): Promise<void>;
  /**
   * Commits files on a branch of origin (through a scratch clone), as a merged pull request would;
   * a null content deletes the file.
   */
  landOn(branch: string, files: Record<string, string | null>, message?: string): Promise<string>;
  note(id: string, bumps: Record<string, string>, summary: string): Record<string, string>;
  cleanup(): Promise<void>;
}

export const WORKSPACES = { core: "@fx/core", app: "@fx/app", tools: "@fx/tools" };

export async function makeFixture(productVersion = "1.4.2"): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), "release-fixture-"));
  const origin = join(dir, "origin.git");
  const root = join(dir, "work");
  await git(dir, ["init", "--quiet", "--bare", "--initial-branch=main", origin]);
  await git(dir, ["clone", "--quiet", origin, root]);
  const changesetConfig = await readFile(
    join(import.meta.dirname, "../../../../.changeset/config.json"),
    "utf8",
  );
  const files: Record<string, string> = {
    "package.json": `{\n  "name": "fixture",\n  "version": "${productVersion}",\n  "private": true,\n  "scripts": { "lint": "true" }\n}\n`,
    "pnpm-workspace.yaml": "packages:\n  - core\n  - app\n  - tools\n",
    "core/package.json": `{\n  "name": "${WORKSPACES.core}",\n  "version": "0.3.0",\n  "private": true\n}\n`,
    "app/package.json": `{\n  "name": "${WORKSPACES.app}",\n  "version": "0.7.1",\n  "private": true,\n  "dependencies": { "${WORKSPACES.core}": "workspace:*" }\n}\n`,
    "tools/package.json": `{\n  "name": "${WORKSPACES.tools}",\n  "version": "2.0.0",\n  "private": true\n}\n`,
    ".changeset/config.json": changesetConfig,
    ".changeset/README.md": "# Change notes\n",
    ".gitignore": "node_modules/\n",
  };
  const write = async (entries: Record<string, string>) => {
    for (const [path, text] of Object.entries(entries)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  };
  await write(files);
  await git(root, ["checkout", "--quiet", "-b", "main"]);
  await git(root, ["add", "--all"]);
  await git(root, ["commit", "--quiet", "-m", "initial"]);
  await git(root, ["push", "--quiet", "origin", "main", "main:production"]);

  let scratchCount = 0;
  return {
    root,
    origin,
    write,
    async commitAll(message) {
      await git(root, ["add", "--all"]);
      await git(root, ["commit", "--quiet", "-m", message]);
    },
    async landOn(branch, entries, message = "change") {
      const scratch = join(dir, `scratch-${++scratchCount}`);
      await git(dir, ["clone", "--quiet", "--branch", branch, origin, scratch]);
      for (const [path, text] of Object.entries(entries)) {
        if (text === null) {
          await rm(join(scratch, path));
          continue;
        }
        await mkdir(dirname(join(scratch, path)), { recursive: true });
        await writeFile(join(scratch, path), text);
      }
      await git(scratch, ["add", "--all"]);
      await git(scratch, ["commit", "--quiet", "-m", message]);
      await git(scratch, ["push", "--quiet", "origin", branch]);
      const sha = await git(scratch, ["rev-parse", "HEAD"]);
      await rm(scratch, { recursive: true, force: true });
      return sha;
    },
    note(id, bumps, summary) {
      const front = Object.entries(bumps)
        .map(([name, type]) => `"${name}": ${type}`)
        .join("\n");
      return { [`.changeset/${id}.md`]: `---\n${front}\n---\n\n${summary}\n` };
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
