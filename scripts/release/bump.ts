import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { prependReleaseSection, renderReleaseSection } from "./changelog.ts";
import { type ChangeNote, deriveProductBump, readChangeNotes } from "./changesets.ts";
import { ReleaseError } from "./errors.ts";
import { run } from "./exec.ts";
import { readProductVersion, readWorkspaceNames, writeProductVersion } from "./manifest.ts";
import {
  type BumpType,
  bumpVersion,
  compareVersions,
  formatVersion,
  tagOf,
  type Version,
} from "./version.ts";

export interface BumpPlan {
  current: Version;
  next: Version;
  tag: string;
  bump: BumpType;
  notes: ChangeNote[];
  /** The root CHANGELOG.md entry, also the pull request's body and the release notes. */
  section: string;
}

/** What the cut will release, from the tree at root; throws when it cannot be derived. */
export async function planBump(root: string): Promise<BumpPlan> {
  const current = await readProductVersion(root);
  const notes = await readChangeNotes(root);
  const bump = deriveProductBump(notes, await readWorkspaceNames(root));
  const next = bumpVersion(current, bump);
  const tag = tagOf(next);
  return { current, next, tag, bump, notes, section: renderReleaseSection(tag, notes) };
}

export type WorkspaceVersioner = (root: string) => Promise<void>;

/** `changeset version`: bumps the workspaces (dependents get a patch), writes their changelogs. */
export const changesetVersion: WorkspaceVersioner = async (root) => {
  const bin = createRequire(import.meta.url).resolve("@changesets/cli/bin.js");
  const result = await run(process.execPath, [bin, "version"], { cwd: root });
  if (result.code !== 0) {
    throw new ReleaseError(`changeset version failed:\n${result.stdout}${result.stderr}`);
  }
};

/** Applies the plan to the work tree at root: workspace versions, product version, changelog. */
export async function applyBump(
  root: string,
  plan: BumpPlan,
  versionWorkspaces: WorkspaceVersioner = changesetVersion,
): Promise<void> {
  await versionWorkspaces(root);
  // The workspace tool must leave the product version alone; if it did not, stop before committing.
  const after = await readProductVersion(root);
  if (compareVersions(after, plan.current) !== 0) {
    throw new ReleaseError(
      `the workspace versioning changed the root version (${formatVersion(plan.current)} → ${formatVersion(after)})`,
    );
  }
  await writeProductVersion(root, plan.next);
  const path = join(root, "CHANGELOG.md");
  const existing = await readFile(path, "utf8").catch(() => null);
  await writeFile(path, prependReleaseSection(existing, plan.section));
}
