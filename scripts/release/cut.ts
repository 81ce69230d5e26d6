import { applyBump, type BumpPlan, planBump, type WorkspaceVersioner } from "./bump.ts";
import { type ReleaseConfig, statusContexts } from "./config.ts";
import { RefusedError, ReleaseError } from "./errors.ts";
import { describeCommand, run } from "./exec.ts";
import { git, gitMaybe, isClean, listReleaseTags, worktreeChanges } from "./git.ts";
import type { GitHub, PullRequest } from "./github.ts";
import { readProductVersion } from "./manifest.ts";
import { refusalsToCut } from "./preflight.ts";
import { commitBump, createReleaseBranch } from "./release-branch.ts";
import { formatVersion } from "./version.ts";

export type GateRunner = (command: string[], root: string) => Promise<boolean>;

export interface CutOptions {
  /** A checkout of the repository whose remote "origin" is the GitHub repository. */
  root: string;
  github: GitHub;
  config: ReleaseConfig;
  dryRun: boolean;
  log: (line: string) => void;
  runGate?: GateRunner;
  versionWorkspaces?: WorkspaceVersioner;
  /** Link of the statuses (the workflow run). */
  targetUrl?: string;
}

export interface CutResult {
  plan: BumpPlan;
  branch: string;
  /** The release commit (in a dry run: the local merge it would have been made on). */
  commit: string;
  files: { additions: string[]; deletions: string[] };
  failedGate: string | null;
  pull: PullRequest | null;
}

const runGateInherit: GateRunner = async (command, root) => {
  const [program = "", ...args] = command;
  return (await run(program, args, { cwd: root, inherit: true })).code === 0;
};

/** Cuts release/v<next> from the integration branch and proposes it to the production branch. */
export async function cutRelease(o: CutOptions): Promise<CutResult> {
  const { root, github, config, log } = o;
  const say = (line: string) => log(o.dryRun ? `[dry run] ${line}` : line);
  const { integrationBranch: main, productionBranch: prod } = config;

  if (!(await isClean(root))) {
    throw new ReleaseError(
      "the checkout has uncommitted changes; the cut starts from a clean checkout",
    );
  }
  await git(root, [
    "fetch",
    "--quiet",
    "--tags",
    "--force",
    "origin",
    `+refs/heads/${main}:refs/remotes/origin/${main}`,
  ]);
  const base = await git(root, ["rev-parse", `refs/remotes/origin/${main}`]);
  await git(root, ["checkout", "--quiet", "--detach", base]);
  const hasProduction = await gitMaybe(root, [
    "fetch",
    "--quiet",
    "origin",
    `+refs/heads/${prod}:refs/remotes/origin/${prod}`,
  ]);

  const reasons = await refusalsToCut({
    github,
    config,
    integrationVersion: await readProductVersion(root),
    releaseTags: await listReleaseTags(root),
  });
  if (hasProduction === null)
    reasons.push(`the production branch "${prod}" does not exist on GitHub`);
  const plan = await planBump(root);
  const branch = `${config.releaseBranchPrefix}${plan.tag}`;
  if (await github.getRef(`tags/${plan.tag}`)) reasons.push(`tag ${plan.tag} already exists`);
  if (await github.getRef(`heads/${branch}`)) {
    reasons.push(
      `branch ${branch} already exists (a failed cut?): inspect it, delete it, cut again`,
    );
  }
  if (reasons.length > 0) throw new RefusedError(reasons);

  say(
    `${formatVersion(plan.current)} → ${plan.tag}: ${plan.bump}, the highest bump in ${plan.notes.length} change note(s) (${plan.notes.map((n) => n.id).join(", ")})`,
  );
  const head = await createReleaseBranch(o, branch, base);
  await applyBump(root, plan, o.versionWorkspaces);
  const files = await worktreeChanges(root);
  const commit = await commitBump(o, branch, head, plan, files);

  const failedGate = await runGates(o);
  await postStatuses(o, commit, plan, failedGate);
  if (failedGate) {
    throw new ReleaseError(
      `gate "${failedGate}" failed on ${branch}; no pull request was opened. Fix it on ${main}, ` +
        `delete ${branch} (git push origin --delete ${branch}) and cut again.`,
    );
  }
  const title = `Release ${plan.tag}`;
  const body = `${plan.section}\n---\nMerging publishes ${plan.tag}: tag, GitHub release, images; the deploy then waits for approval of the \`production\` environment.\n`;
  if (o.dryRun) {
    say(`would open pull request "${title}" (${branch} → ${prod}) with body:\n${body}`);
    return { plan, branch, commit, files, failedGate, pull: null };
  }
  const pull = await github.createPull({ title, head: branch, base: prod, body });
  log(`opened ${pull.html_url}`);
  return { plan, branch, commit, files, failedGate, pull };
}

async function runGates(o: CutOptions): Promise<string | null> {
  const runGate = o.runGate ?? runGateInherit;
  for (const gate of o.config.gates) {
    o.log(`gate: ${gate.name}: ${describeCommand(gate.command)}`);
    if (!(await runGate(gate.command, o.root))) return gate.name;
  }
  return null;
}

async function postStatuses(o: CutOptions, sha: string, plan: BumpPlan, failedGate: string | null) {
  const contexts = statusContexts(o.config);
  const statuses = [
    {
      context: contexts.version,
      state: "success" as const,
      description: `${plan.tag} (${plan.bump} from ${plan.notes.length} note(s), was ${formatVersion(plan.current)})`,
    },
    {
      context: contexts.gates,
      state: failedGate ? ("failure" as const) : ("success" as const),
      description: failedGate
        ? `failed: ${failedGate}`
        : `passed: ${o.config.gates.map((g) => g.name).join(", ")}`.slice(0, 140),
    },
  ];
  for (const status of statuses) {
    if (o.dryRun) {
      o.log(
        `[dry run] would post status ${status.context} = ${status.state} (${status.description})`,
      );
      continue;
    }
    await o.github.createStatus(sha, {
      ...status,
      ...(o.targetUrl ? { target_url: o.targetUrl } : {}),
    });
  }
}
