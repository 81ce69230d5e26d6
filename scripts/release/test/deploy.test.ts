import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { releaseConfig } from "../config.ts";
import { DEPLOY_VARIABLES, deployPlan, runDeploy } from "../deploy.ts";

const repoRoot = join(import.meta.dirname, "../../..");
const env = {
  DEPLOY_HOST: "deploy@transcoder.example",
  DATABASE_URL: "postgres://secret",
  JWT_SECRET: "s".repeat(32),
};
const plan = (tag: string, environment: "staging" | "production" = "production") =>
  deployPlan({
    environment,
    tag,
    sha: "abcdef0123456789abcdef0123456789abcdef01",
    registry: "ghcr.io/acme",
    config: releaseConfig,
    composeFile: "services: {}\n",
    env,
    sshOptions: ["-i", "/tmp/key"],
  });

describe("the deploy plan", () => {
  it("migrates before anything new runs, then the transcoder, then the Worker", () => {
    expect(plan("v1.5.0").map((s) => s.name)).toEqual([
      "compose file to the host",
      "database migrations (migrate image)",
      "transcoder",
      "Worker secrets (DATABASE_URL, JWT_SECRET)",
      "Worker",
    ]);
  });

  it("runs every image at the one tag v<version> and deploys the Worker of that tag to the environment", () => {
    const steps = plan("v1.5.0", "staging");
    for (const step of steps.slice(1, 3))
      expect(step.command.at(-1)).toContain(
        "export IMAGE_TAG='v1.5.0' IMAGE_REGISTRY='ghcr.io/acme';",
      );
    expect(steps.at(-1)?.command).toEqual([
      "pnpm",
      "--filter",
      "@edge-music/worker",
      "exec",
      "wrangler",
      "deploy",
      "--config",
      "../wrangler.toml",
      "--env",
      "staging",
      "--tag",
      "v1.5.0",
      "--message",
      "edge-music v1.5.0 (abcdef012345)",
    ]);
  });

  it("is the rollback: an older tag deploys that tag's images and Worker", () => {
    const steps = plan("v1.4.2");
    expect(steps[2]?.command.at(-1)).toContain("IMAGE_TAG='v1.4.2'");
    expect(steps.at(-1)?.command).toContain("v1.4.2");
  });

  it("passes the Worker's secrets on stdin, never as arguments, and only those set", () => {
    const secrets = plan("v1.5.0").find((s) => s.name.startsWith("Worker secrets"));
    expect(JSON.parse(secrets?.input ?? "")).toEqual({
      DATABASE_URL: "postgres://secret",
      JWT_SECRET: "s".repeat(32),
    });
    expect(secrets?.command.join(" ")).not.toContain("postgres://secret");
  });

  it("refuses anything but a release tag", () => {
    expect(() => plan("production")).toThrow(/not a release tag/);
  });
});

describe("running a deploy", () => {
  const steps = [
    { name: "first", command: ["true"] },
    { name: "second", command: ["false"] },
    { name: "third", command: ["true"] },
  ];
  const full = Object.fromEntries(DEPLOY_VARIABLES.map((n) => [n, "x"]));

  it("refuses without the environment's deploy secrets, naming them", async () => {
    await expect(
      runDeploy({ steps, root: repoRoot, env: {}, dryRun: false, log: () => {} }),
    ).rejects.toThrow(/CLOUDFLARE_API_TOKEN is not set/);
  });

  it("dry run prints each step and runs none", async () => {
    const lines: string[] = [];
    await runDeploy({ steps, root: repoRoot, env: {}, dryRun: true, log: (l) => lines.push(l) });
    expect(lines.filter((l) => l.startsWith("[dry run] would run"))).toHaveLength(3);
  });

  it("stops at the first failing step and says what was already deployed", async () => {
    await expect(
      runDeploy({ steps, root: repoRoot, env: full, dryRun: false, log: () => {} }),
    ).rejects.toThrow(/deploy step "second" failed \(1\); done before it: first$/);
  });
});

describe("compose.production.yaml", () => {
  it("pulls every image a release publishes at one shared tag variable", async () => {
    const compose = parseYaml(
      await readFile(join(repoRoot, "compose.production.yaml"), "utf8"),
    ) as {
      services: Record<string, { image: string }>;
    };
    const ours = Object.values(compose.services)
      .map((s) => s.image)
      .filter((image) => image.includes("IMAGE_REGISTRY"));
    expect(ours.sort()).toEqual(
      releaseConfig.images
        .map(
          (i) =>
            `\${IMAGE_REGISTRY:-ghcr.io/edge-music}/${i.name}:\${IMAGE_TAG:?set IMAGE_TAG to a release tag, v<version>}`,
        )
        .sort(),
    );
  });
});
