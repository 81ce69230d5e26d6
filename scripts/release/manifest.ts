import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ReleaseError } from "./errors.ts";
import { formatVersion, parseVersion, type Version } from "./version.ts";

/** The product version: the `version` field of the root package.json. */
export async function readProductVersion(root: string): Promise<Version> {
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof manifest.version !== "string") {
    throw new ReleaseError("the root package.json has no version field (the product version)");
  }
  return parseVersion(manifest.version);
}

/** Rewrites only the version field, keeping the file's formatting byte for byte elsewhere. */
export async function writeProductVersion(root: string, version: Version): Promise<void> {
  const path = join(root, "package.json");
  const text = await readFile(path, "utf8");
  const field = /^(\s*"version"\s*:\s*")([^"]*)(")/m;
  if (!field.test(text)) throw new ReleaseError("the root package.json has no version field");
  const next = text.replace(field, `$1${formatVersion(version)}$3`);
  const written = JSON.parse(next) as { version?: string };
  if (written.version !== formatVersion(version)) {
    // The first "version" key was not the top-level one: refuse rather than edit the wrong field.
    throw new ReleaseError("could not locate the top-level version field of the root package.json");
  }
  await writeFile(path, next);
}

/** Names of the workspaces listed in pnpm-workspace.yaml (plain folders or "<folder>/*"). */
export async function readWorkspaceNames(root: string): Promise<Set<string>> {
  const spec = parseYaml(await readFile(join(root, "pnpm-workspace.yaml"), "utf8")) as {
    packages?: string[];
  };
  const names = new Set<string>();
  for (const pattern of spec.packages ?? []) {
    const dirs = pattern.endsWith("/*")
      ? (await readdir(join(root, pattern.slice(0, -2)), { withFileTypes: true }))
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern];
    for (const dir of dirs) {
      try {
        const manifest = JSON.parse(await readFile(join(root, dir, "package.json"), "utf8"));
        if (typeof manifest.name === "string") names.add(manifest.name);
      } catch {
        // A folder without a package.json is not a workspace.
      }
    }
  }
  return names;
}
