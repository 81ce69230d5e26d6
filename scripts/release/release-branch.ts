import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { BumpPlan } from "./bump.ts";
import type { ReleaseConfig } from "./config.ts";
import { ReleaseError } from "./errors.ts";
import { type FileChanges, git, gitMaybe, worktreeTree } from "./git.ts";
import { type GitHub, GitHubApiError } from "./github.ts";

export interface BranchContext {
  root: string;
  github: GitHub;
  config: ReleaseConfig;
  dryRun: boolean;
  log: (line: string) => void;
}

async function fetchBranch(root: string, branch: string): Promise<string> {
  await git(root, [
    "fetch",
    "--quiet",
    "origin",
    `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
  ]);
  return git(root, ["rev-parse", `refs/remotes/origin/${branch}`]);
}

/**
 * Creates the release branch at base and merges the production branch into it on GitHub, then
 * checks the result out; returns the branch's head. The dry run merges locally instead.
 */
export async function createReleaseBranch(
  o: BranchContext,
  branch: string,
  base: string,
): Promise<string> {
  const prod = o.config.productionBranch;
  const message = `Merge ${prod} into ${branch}`;
  if (o.dryRun) {
    o.log(
      `[dry run] would create ${branch} at ${base} and merge ${prod} into it on GitHub; merging locally`,
    );
    try {
      await git(o.root, [
        "merge",
        "--no-ff",
        "--no-edit",
        "-m",
        message,
        `refs/remotes/origin/${prod}`,
      ]);
    } catch (err) {
      await gitMaybe(o.root, ["merge", "--abort"]);
      throw new ReleaseError(
        `${prod} does not merge cleanly into ${branch}: ${(err as Error).message}`,
      );
    }
    return git(o.root, ["rev-parse", "HEAD"]);
  }
  await o.github.createRef(`heads/${branch}`, base);
  try {
    const sha = await o.github.merge(branch, prod, message);
    o.log(sha ? `merged ${prod} into ${branch} (${sha})` : `${prod} is already in ${branch}`);
  } catch (err) {
    // The branch is ours and useless now; leaving it would block the next cut.
    await o.github.deleteRef(`heads/${branch}`);
    const conflict = err instanceof GitHubApiError && err.status === 409;
    throw new ReleaseError(
      conflict
        ? `${prod} does not merge cleanly into ${branch}: back-merge ${prod} into ${o.config.integrationBranch} first`
        : (err as Error).message,
    );
  }
  const head = await fetchBranch(o.root, branch);
  await git(o.root, ["checkout", "--quiet", "--detach", head]);
  return head;
}

/**
 * Commits the bumped work tree as one commit made by GitHub (createCommitOnBranch: signed by
 * GitHub), then checks that the commit holds exactly the local tree, which the gates will test.
 */
export async function commitBump(
  o: BranchContext,
  branch: string,
  head: string,
  plan: BumpPlan,
  files: FileChanges,
): Promise<string> {
  const headline = `release: ${plan.tag}`;
  const body = `${plan.bump} bump from ${plan.notes.length} change note(s).`;
  const list = [
    ...files.additions.map((f) => `  M ${f}`),
    ...files.deletions.map((f) => `  D ${f}`),
  ].join("\n");
  if (o.dryRun) {
    o.log(`[dry run] would commit "${headline}" on ${branch} through the GitHub API:\n${list}`);
    return head;
  }
  const additions = await Promise.all(
    files.additions.map(async (path) => ({
      path,
      contents: (await readFile(join(o.root, path))).toString("base64"),
    })),
  );
  const commit = await o.github.commitOnBranch({
    branch,
    expectedHeadOid: head,
    headline,
    body,
    additions,
    deletions: files.deletions,
  });
  await fetchBranch(o.root, branch);
  const [local, remote] = await Promise.all([
    worktreeTree(o.root),
    git(o.root, ["rev-parse", `${commit}^{tree}`]),
  ]);
  if (local !== remote) {
    const diff = await git(o.root, ["diff-tree", "-r", "--name-status", remote, local]);
    throw new ReleaseError(`the release commit ${commit} does not hold the bumped tree:\n${diff}`);
  }
  // Same content, so this only moves HEAD: the gates then run on exactly what was committed.
  await git(o.root, ["reset", "--quiet", "--hard", commit]);
  o.log(`committed ${commit} on ${branch}:\n${list}`);
  return commit;
}
