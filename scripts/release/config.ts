/**
 * The release process in one place. The workflows repeat the branch names in their triggers (YAML
 * cannot import this); test/workflows.test.ts fails when they disagree.
 */
export interface ImageConfig {
  /** Repository name under the registry: <registry>/<name>:<tag>. */
  name: string;
  dockerfile: string;
}

export interface ReleaseConfig {
  /** Where work lands and release branches are cut from (also changesets' baseBranch). */
  integrationBranch: string;
  /** What runs in production; a push to it publishes. Also the moving image tag. */
  productionBranch: string;
  /** Commit statuses are "<namespace>/release-gates" and "<namespace>/release-version". */
  statusNamespace: string;
  releaseBranchPrefix: string;
  backmergeBranchPrefix: string;
  /** Every image a release publishes, at one shared tag (compose.production.yaml). */
  images: ImageConfig[];
  /** The cut's gates, run in order on the release commit; the first failure stops them. */
  gates: { name: string; command: string[] }[];
  /** Worker secrets pushed with `wrangler secret bulk` when the deploy environment sets them. */
  workerSecrets: string[];
}

export const releaseConfig: ReleaseConfig = {
  integrationBranch: "main",
  productionBranch: "production",
  statusNamespace: "edge-music",
  releaseBranchPrefix: "release/",
  backmergeBranchPrefix: "backmerge/",
  images: [
    { name: "transcoder", dockerfile: "transcoder/Dockerfile" },
    { name: "migrate", dockerfile: "deploy/migrate.Dockerfile" },
  ],
  gates: [
    { name: "install (frozen lockfile)", command: ["pnpm", "install", "--frozen-lockfile"] },
    { name: "lint", command: ["pnpm", "run", "lint"] },
    { name: "typecheck", command: ["pnpm", "run", "typecheck"] },
    { name: "build: workspaces", command: ["pnpm", "-r", "--if-present", "run", "build"] },
    {
      name: "build: worker bundle",
      command: [
        ...workerWrangler(["deploy", "--dry-run"], "production"),
        "--outdir",
        "../dist/worker",
      ],
    },
  ],
  workerSecrets: [
    "DATABASE_URL",
    "REDIS_URL",
    "JWT_SECRET",
    "ENCRYPTION_KEY",
    "ENCRYPTION_KEYS_PREVIOUS",
    "OAUTH_GOOGLE_CLIENT_SECRET",
    "OAUTH_FACEBOOK_CLIENT_SECRET",
    "MAIL_API_KEY",
  ],
};

/**
 * The worker package's wrangler on one environment of wrangler.toml, as pnpm runs it (in worker/,
 * hence `../wrangler.toml`): `args` are the command and its flags. The cut's build gate and the
 * deploy run the same one.
 */
export function workerWrangler(args: string[], environment: string): string[] {
  const wrangler = ["pnpm", "--filter", "@edge-music/worker", "exec", "wrangler"];
  return [...wrangler, ...args, "--config", "../wrangler.toml", "--env", environment];
}

export function statusContexts(config: ReleaseConfig) {
  return {
    gates: `${config.statusNamespace}/release-gates`,
    version: `${config.statusNamespace}/release-version`,
  };
}
