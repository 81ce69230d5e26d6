/**
 * Entry point of the release workflows: `tsx scripts/release/cli.ts <command> [options]`.
 * The workflows only check out, bring the toolchain and call this; the logic is in the modules.
 */
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { releaseConfig } from "./config.ts";
import { cutRelease } from "./cut.ts";
import { deployPlan, ENVIRONMENTS, type Environment, runDeploy } from "./deploy.ts";
import { ReleaseError } from "./errors.ts";
import { run } from "./exec.ts";
import { listReleaseTags } from "./git.ts";
import { GitHub } from "./github.ts";
import { dockerCli, publishImages, resolveRelease } from "./images.ts";
import { lintWorkflows } from "./lint-workflows.ts";
import { openBackmerge, publish } from "./publish.ts";

const root = resolve(import.meta.dirname, "../..");
const env = process.env;
const log = (line: string) => console.log(line);

function need(name: string): string {
  const value = env[name];
  if (!value) throw new ReleaseError(`${name} is not set`);
  return value;
}

function github(): GitHub {
  return new GitHub({
    repository: need("GITHUB_REPOSITORY"),
    token: need("GITHUB_TOKEN"),
    apiUrl: env.GITHUB_API_URL ?? "https://api.github.com",
    graphqlUrl: env.GITHUB_GRAPHQL_URL ?? "https://api.github.com/graphql",
  });
}

/** Step outputs for the workflow (GITHUB_OUTPUT), echoed to the log as well. */
async function output(values: Record<string, string>): Promise<void> {
  const lines = Object.entries(values).map(([k, v]) => `${k}=${v}`);
  log(lines.join("\n"));
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, `${lines.join("\n")}\n`);
}

function registry(): string {
  return env.IMAGE_REGISTRY || `ghcr.io/${need("GITHUB_REPOSITORY_OWNER").toLowerCase()}`;
}

const commands: Record<string, (flags: Flags) => Promise<void>> = {
  async cut(flags) {
    const runUrl = env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
    const result = await cutRelease({
      root,
      github: github(),
      config: releaseConfig,
      dryRun: flags.dryRun,
      log,
      ...(runUrl ? { targetUrl: runUrl } : {}),
    });
    await output({
      tag: result.plan.tag,
      branch: result.branch,
      pull: result.pull?.html_url ?? "",
    });
  },
  async publish() {
    const result = await publish({ root, sha: need("GITHUB_SHA"), github: github(), log });
    await output({
      released: String(result.released),
      tag: result.tag,
      sha: result.released ? result.sha : "",
    });
  },
  async backmerge(flags) {
    await openBackmerge({
      github: github(),
      config: releaseConfig,
      tag: flags.tag,
      sha: flags.sha,
      log,
    });
  },
  async tags() {
    for (const tag of await listReleaseTags(root)) log(tag);
  },
  async images(flags) {
    const release = await resolveRelease(root, flags.tag);
    if (!flags.dryRun) await registryLogin();
    await publishImages({
      root,
      config: releaseConfig,
      release,
      registry: registry(),
      repository: need("GITHUB_REPOSITORY"),
      dryRun: flags.dryRun,
      docker: dockerCli(root),
      log,
    });
    await output({ tag: release.tag, sha: release.sha, newest: String(release.newest) });
  },
  async deploy(flags) {
    if (!ENVIRONMENTS.includes(flags.environment as Environment)) {
      throw new ReleaseError(`--environment must be one of ${ENVIRONMENTS.join(", ")}`);
    }
    const release = await resolveRelease(root, flags.tag);
    const dir = await mkdtemp(join(tmpdir(), "deploy-ssh-"));
    try {
      // The key and host keys come from environment secrets; files readable by us alone.
      await writeFile(join(dir, "key"), `${env.DEPLOY_SSH_KEY ?? ""}\n`, { mode: 0o600 });
      await writeFile(join(dir, "known_hosts"), `${env.DEPLOY_KNOWN_HOSTS ?? ""}\n`, {
        mode: 0o600,
      });
      const steps = deployPlan({
        environment: flags.environment as Environment,
        tag: release.tag,
        sha: release.sha,
        registry: registry(),
        config: releaseConfig,
        composeFile: await readFile(join(root, "compose.production.yaml"), "utf8"),
        env,
        sshOptions: [
          "-i",
          join(dir, "key"),
          "-o",
          "BatchMode=yes",
          "-o",
          "StrictHostKeyChecking=yes",
          "-o",
          `UserKnownHostsFile=${join(dir, "known_hosts")}`,
        ],
      });
      await runDeploy({ steps, root, env, dryRun: flags.dryRun, log });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  async "lint-workflows"() {
    const problems = await lintWorkflows(join(root, ".github/workflows"));
    for (const p of problems) log(`${p.file}:${p.line}: [${p.kind}] ${p.message}`);
    if (problems.length > 0)
      throw new ReleaseError(`${problems.length} problem(s) in .github/workflows`);
    log("workflows: no problems");
  },
};

async function registryLogin(): Promise<void> {
  const host = registry().split("/")[0] ?? "";
  const user = env.REGISTRY_USER || need("GITHUB_ACTOR");
  const token = env.REGISTRY_TOKEN || need("GITHUB_TOKEN");
  const result = await run("docker", ["login", host, "--username", user, "--password-stdin"], {
    cwd: root,
    input: token,
  });
  if (result.code !== 0)
    throw new ReleaseError(`docker login ${host} failed: ${result.stderr.trim()}`);
}

interface Flags {
  dryRun: boolean;
  tag: string;
  sha: string;
  environment: string;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "dry-run": { type: "string", default: "false" },
      tag: { type: "string", default: "" },
      sha: { type: "string", default: "" },
      environment: { type: "string", default: "" },
    },
  });
  const name = positionals[0] ?? "";
  const command = commands[name];
  if (!command)
    throw new ReleaseError(
      `usage: cli.ts <${Object.keys(commands).join("|")}> [--dry-run true|false] [--tag vX.Y.Z] [--sha SHA] [--environment NAME]`,
    );
  // Workflow inputs arrive as the strings "true"/"false".
  const dryRun = values["dry-run"] === "true";
  await command({ dryRun, tag: values.tag, sha: values.sha, environment: values.environment });
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ReleaseError) {
    console.error(`::error::${err.message.split("\n")[0]}`);
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
