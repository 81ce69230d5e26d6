import { type ReleaseConfig, workerWrangler } from "./config.ts";
import { RefusedError, ReleaseError } from "./errors.ts";
import { describeCommand, run } from "./exec.ts";
import { parseReleaseTag } from "./version.ts";

export const ENVIRONMENTS = ["staging", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** What a deploy needs from its GitHub environment besides the Worker's own secrets. */
export const DEPLOY_VARIABLES = [
  "CLOUDFLARE_API_TOKEN",
  "CLOUDFLARE_ACCOUNT_ID",
  "DEPLOY_HOST",
  "DEPLOY_SSH_KEY",
  "DEPLOY_KNOWN_HOSTS",
] as const;

export interface DeployStep {
  name: string;
  command: string[];
  /** stdin of the command: the compose file, or the Worker's secrets as JSON (never in argv). */
  input?: string;
}

export interface DeployInput {
  environment: Environment;
  tag: string;
  sha: string;
  registry: string;
  config: ReleaseConfig;
  composeFile: string;
  /** The deploy job's environment variables (GitHub environment secrets). */
  env: Record<string, string | undefined>;
  /** ssh arguments before the destination (identity and known hosts files). */
  sshOptions: string[];
}

const REMOTE_DIR = "edge-music";
const COMPOSE = `docker compose --project-name edge-music --file ${REMOTE_DIR}/compose.production.yaml`;

/** Quotes one word for the remote POSIX shell. */
function shq(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The deploy of one release to one environment, in order: the compose file to the host, the
 * migrations (before any new code runs), the transcoder, then the Worker's secrets and the Worker.
 * Every image comes from the same tag, v<version>: deploying an older tag is the rollback.
 */
export function deployPlan(input: DeployInput): DeployStep[] {
  if (!parseReleaseTag(input.tag)) throw new ReleaseError(`"${input.tag}" is not a release tag`);
  const host = input.env.DEPLOY_HOST ?? "<DEPLOY_HOST>";
  const ssh = (remote: string) => ["ssh", ...input.sshOptions, host, remote];
  const exported = `export IMAGE_TAG=${shq(input.tag)} IMAGE_REGISTRY=${shq(input.registry)};`;
  const secrets = Object.fromEntries(
    input.config.workerSecrets.flatMap((name) =>
      input.env[name] ? [[name, input.env[name]]] : [],
    ),
  );
  const steps: DeployStep[] = [
    {
      name: "compose file to the host",
      command: ssh(`mkdir -p ${REMOTE_DIR} && cat > ${REMOTE_DIR}/compose.production.yaml`),
      input: input.composeFile,
    },
    {
      name: "database migrations (migrate image)",
      command: ssh(`${exported} ${COMPOSE} pull --quiet && ${COMPOSE} run --rm migrate`),
    },
    {
      name: "transcoder",
      command: ssh(`${exported} ${COMPOSE} up --detach --wait --remove-orphans transcoder`),
    },
  ];
  if (Object.keys(secrets).length > 0) {
    steps.push({
      name: `Worker secrets (${Object.keys(secrets).join(", ")})`,
      command: workerWrangler(["secret", "bulk"], input.environment),
      input: JSON.stringify(secrets),
    });
  }
  steps.push({
    name: "Worker",
    command: [
      ...workerWrangler(["deploy"], input.environment),
      "--tag",
      input.tag,
      "--message",
      `edge-music ${input.tag} (${input.sha.slice(0, 12)})`,
    ],
  });
  return steps;
}

/** Names a deploy cannot do without; the dry run lists them instead of failing. */
export function missingDeployVariables(env: Record<string, string | undefined>): string[] {
  return DEPLOY_VARIABLES.filter((name) => !env[name]);
}

export async function runDeploy(o: {
  steps: DeployStep[];
  root: string;
  env: Record<string, string | undefined>;
  dryRun: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const missing = missingDeployVariables(o.env);
  if (missing.length > 0 && !o.dryRun) {
    throw new RefusedError(missing.map((name) => `${name} is not set in this GitHub environment`));
  }
  if (missing.length > 0)
    o.log(`[dry run] not set here (needed by a real deploy): ${missing.join(", ")}`);
  const done: string[] = [];
  for (const step of o.steps) {
    const shown = describeCommand(step.command);
    if (o.dryRun) {
      o.log(
        `[dry run] would run: ${step.name}: ${shown}${step.input === undefined ? "" : " (with stdin)"}`,
      );
      continue;
    }
    o.log(`deploy: ${step.name}: ${shown}`);
    const [program = "", ...args] = step.command;
    const result = await run(program, args, {
      cwd: o.root,
      inherit: true,
      ...(step.input === undefined ? {} : { input: step.input }),
    });
    if (result.code !== 0) {
      throw new ReleaseError(
        `deploy step "${step.name}" failed (${result.code}); done before it: ${done.join(", ") || "nothing"}`,
      );
    }
    done.push(step.name);
  }
}
