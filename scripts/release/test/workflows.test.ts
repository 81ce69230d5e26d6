import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { releaseConfig } from "../config.ts";
import { DEPLOY_VARIABLES } from "../deploy.ts";
import { checkWorkflow, lintWorkflows } from "../lint-workflows.ts";

const workflows = join(import.meta.dirname, "../../../.github/workflows");
type Workflow = {
  on: Record<
    string,
    { branches?: string[]; tags?: string[]; inputs?: Record<string, { type: string }> } | null
  >;
  jobs: Record<
    string,
    { steps?: { env?: Record<string, string>; run?: string; with?: Record<string, unknown> }[] }
  >;
};
const load = async (name: string) =>
  parseYaml(await readFile(join(workflows, name), "utf8")) as Workflow;

describe("the workflow files", () => {
  it("pass actionlint, shellcheck on every run step, SHA pinning, permissions and concurrency", async () => {
    const problems = await lintWorkflows(workflows);
    expect(problems.map((p) => `${p.file}:${p.line}: [${p.kind}] ${p.message}`)).toEqual([]);
    expect((await readdir(workflows)).sort()).toEqual([
      "ci.yml",
      "cut-release.yml",
      "deploy.yml",
      "images.yml",
      "publish.yml",
    ]);
  });

  it("the lint catches what it claims to: a shellcheck finding, an unpinned action, no permissions", async () => {
    const bad = [
      "on: push",
      "jobs:",
      "  x:",
      "    runs-on: ubuntu-24.04",
      "    concurrency: x",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - run: |",
      "          for f in $(ls *.txt); do echo $f; done",
    ].join("\n");
    const kinds = (await checkWorkflow("bad.yml", bad)).map(
      (p) => `${p.kind}: ${p.message.slice(0, 40)}`,
    );
    expect(kinds).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^policy: no top-level permissions/),
        expect.stringMatching(/^policy: "actions\/checkout@v4" is not pinned/),
        expect.stringMatching(/^shellcheck: SC2045/),
        expect.stringMatching(/^shellcheck: SC2086/),
      ]),
    );
  });

  it("use the branch names of the release config", async () => {
    const publish = await load("publish.yml");
    expect(publish.on.push?.branches).toEqual([releaseConfig.productionBranch]);
    const cut = await load("cut-release.yml");
    expect(cut.jobs.cut?.steps?.[0]?.with?.ref).toBe(releaseConfig.integrationBranch);
    const changesets = JSON.parse(
      await readFile(join(workflows, "../../.changeset/config.json"), "utf8"),
    );
    expect(changesets.baseBranch).toBe(releaseConfig.integrationBranch);
  });

  it("offer dry_run on the cut and the image workflow, and images start on v* tags", async () => {
    expect((await load("cut-release.yml")).on.workflow_dispatch?.inputs?.dry_run?.type).toBe(
      "boolean",
    );
    const images = await load("images.yml");
    expect(images.on.workflow_dispatch?.inputs?.dry_run?.type).toBe("boolean");
    expect(images.on.push?.tags).toEqual(["v*"]);
  });

  it("create the release tag with GITHUB_TOKEN only, so the tag starts no second build", async () => {
    const steps = (await load("publish.yml")).jobs.release?.steps ?? [];
    const publishing = steps.find((s) => s.run?.includes("cli.ts publish"));
    expect(publishing?.env).toEqual({ GITHUB_TOKEN: `\${{ secrets.GITHUB_TOKEN }}` });
  });

  it("hand the deploy every secret it reads", async () => {
    const deploy = (await load("deploy.yml")).jobs.deploy?.steps?.find((s) =>
      s.run?.includes("cli.ts deploy"),
    );
    for (const name of [...DEPLOY_VARIABLES, ...releaseConfig.workerSecrets]) {
      expect(deploy?.env?.[name], name).toBe(`\${{ secrets.${name} }}`);
    }
  });
});
