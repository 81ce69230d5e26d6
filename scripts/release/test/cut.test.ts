import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { releaseConfig } from "../config.ts";
import { cutRelease, type GateRunner } from "../cut.ts";
import { RefusedError } from "../errors.ts";
import { git } from "../git.ts";
import { anOpenPull, type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";
import { type Fixture, makeFixture, WORKSPACES } from "./support/fixture-repo.ts";

let fixture: Fixture;
let gh: FakeGitHub;
let lines: string[];
let gateRuns: { command: string; version: string }[];

/** Records each gate with the product version of the tree it ran on. */
const recordingGates =
  (failOn?: string): GateRunner =>
  async (command, root) => {
    const version = JSON.parse(await readFile(join(root, "package.json"), "utf8")).version;
    gateRuns.push({ command: command.join(" "), version });
    return command.join(" ") !== failOn;
  };

const cut = (dryRun: boolean, runGate = recordingGates()) =>
  cutRelease({
    root: fixture.root,
    github: gh.github,
    config: releaseConfig,
    dryRun,
    log: (l) => lines.push(l),
    runGate,
  });

const originRefs = () => git(fixture.origin, ["for-each-ref", "--format=%(refname) %(objectname)"]);
const originFile = (ref: string, path: string) => git(fixture.origin, ["show", `${ref}:${path}`]);
const writes = () => gh.requests.filter((r) => r.method !== "GET");

beforeEach(async () => {
  fixture = await makeFixture("1.4.2");
  gh = await startFakeGitHub(fixture.origin);
  lines = [];
  gateRuns = [];
  // A hotfix only production has, and two notes only main has.
  await fixture.landOn("production", { "HOTFIX.md": "hotfix\n" }, "hotfix on production");
  await fixture.landOn("main", {
    ...fixture.note("genres", { [WORKSPACES.core]: "minor" }, "Browse by genre."),
    ...fixture.note("typo", { [WORKSPACES.app]: "patch" }, "Fix a typo."),
  });
});

afterEach(async () => {
  await gh.close();
  await fixture.cleanup();
});

describe("the cut", () => {
  it("opens release/v1.5.0: production merged in on the server, one GitHub commit, gates, statuses, pull request", async () => {
    const main = await git(fixture.origin, ["rev-parse", "main"]);
    const production = await git(fixture.origin, ["rev-parse", "production"]);
    const result = await cut(false);

    expect(result.plan.tag).toBe("v1.5.0");
    const branch = "refs/heads/release/v1.5.0";
    // One commit on top of the server-side merge of production into the branch made from main.
    const [commitParent] = (await git(fixture.origin, ["rev-list", "--parents", "-n1", branch]))
      .split(" ")
      .slice(1);
    expect(
      (await git(fixture.origin, ["rev-list", "--parents", "-n1", commitParent ?? ""]))
        .split(" ")
        .slice(1),
    ).toEqual([main, production]);
    expect(gh.commits).toEqual([
      { branch: "release/v1.5.0", oid: result.commit, headline: "release: v1.5.0" },
    ]);
    expect(await git(fixture.origin, ["log", "-1", "--format=%cn", branch])).toBe("GitHub");
    // The commit holds the bump: product and workspace versions, changelog, notes consumed; the hotfix came along.
    expect(JSON.parse(await originFile(branch, "package.json")).version).toBe("1.5.0");
    expect(JSON.parse(await originFile(branch, "core/package.json")).version).toBe("0.4.0");
    expect(await originFile(branch, "CHANGELOG.md")).toContain("## v1.5.0");
    expect(await git(fixture.origin, ["ls-tree", "--name-only", `${branch}:.changeset`])).toBe(
      "README.md\nconfig.json",
    );
    expect(await originFile(branch, "HOTFIX.md")).toBe("hotfix");
    // Gates ran in order, on the bumped tree.
    expect(gateRuns.map((g) => g.command)).toEqual(
      releaseConfig.gates.map((g) => g.command.join(" ")),
    );
    expect(new Set(gateRuns.map((g) => g.version))).toEqual(new Set(["1.5.0"]));
    expect(gh.statuses).toEqual([
      expect.objectContaining({
        sha: result.commit,
        context: "edge-music/release-version",
        state: "success",
      }),
      expect.objectContaining({
        sha: result.commit,
        context: "edge-music/release-gates",
        state: "success",
      }),
    ]);
    expect(gh.pulls).toEqual([anOpenPull("release/v1.5.0", "production", "Release v1.5.0")]);
    expect(gh.pulls[0]?.body).toContain("- Browse by genre. (`@fx/core`)");
  });

  it("dry run: does everything locally, prints what it would do, and writes nothing to GitHub", async () => {
    const before = await originRefs();
    const result = await cut(true);

    expect(result.plan.tag).toBe("v1.5.0");
    expect(writes()).toEqual([]);
    expect(await originRefs()).toBe(before);
    expect(gateRuns).toHaveLength(releaseConfig.gates.length);
    expect(gateRuns[0]?.version).toBe("1.5.0");
    const log = lines.join("\n");
    expect(log).toContain("[dry run] would create release/v1.5.0");
    expect(log).toContain('[dry run] would commit "release: v1.5.0"');
    expect(log).toContain("[dry run] would post status edge-music/release-gates = success");
    expect(log).toContain(
      '[dry run] would open pull request "Release v1.5.0" (release/v1.5.0 → production)',
    );
    // The local merge brought production's hotfix in, as the server merge would.
    expect(await readFile(join(fixture.root, "HOTFIX.md"), "utf8")).toBe("hotfix\n");
  });

  it("a failing gate posts a failed release-gates status and opens no pull request", async () => {
    const failing = releaseConfig.gates[1]?.command.join(" ");
    await expect(cut(false, recordingGates(failing))).rejects.toThrow(
      /gate "lint" failed on release\/v1.5.0; no pull request/,
    );
    expect(gateRuns).toHaveLength(2); // stops at the first failure
    expect(gh.statuses.find((s) => s.context === "edge-music/release-gates")).toMatchObject({
      state: "failure",
      description: "failed: lint",
    });
    expect(gh.pulls).toEqual([]);
  });

  it("refuses while a release pull request into production is open, and writes nothing", async () => {
    await git(fixture.root, ["push", "--quiet", "origin", "HEAD:refs/heads/release/v1.4.9"]);
    gh.openPull("release/v1.4.9", "production");
    await expect(cut(false)).rejects.toThrow(
      /release pull request #1 \(release\/v1.4.9 → production\) is still open/,
    );
    expect(writes()).toEqual([]);
  });

  it("refuses while the previous back-merge is open or never landed, listing every reason", async () => {
    // v1.5.0 was released on production, but main is still at 1.4.2 and its back-merge is open.
    const released = await fixture.landOn("production", {
      "package.json": '{ "name": "fixture", "version": "1.5.0" }\n',
    });
    await git(fixture.origin, ["tag", "v1.5.0", released]);
    gh.openPull("backmerge/v1.5.0", "main");
    const refusal = await cut(true).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(RefusedError);
    expect((refusal as RefusedError).reasons).toEqual([
      expect.stringMatching(/^back-merge #1 \(backmerge\/v1.5.0 → main\) is not merged/),
      expect.stringMatching(
        /^main is at 1.4.2 but v1.5.0 is released: the back-merge of v1.5.0 has not landed/,
      ),
      "tag v1.5.0 already exists",
    ]);
    expect(writes()).toEqual([]);
  });

  it("fails with no pending change notes, before any branch exists", async () => {
    await fixture.landOn("main", { ".changeset/genres.md": null, ".changeset/typo.md": null });
    await expect(cut(false)).rejects.toThrow(
      /no pending change notes in \.changeset\/: nothing to release/,
    );
    expect(writes()).toEqual([]);
  });

  it("deletes its branch when production does not merge cleanly, and says what to do", async () => {
    await fixture.landOn("production", { "HOTFIX.md": "production's words\n" });
    await fixture.landOn("main", { "HOTFIX.md": "main's other words\n" });
    await expect(cut(false)).rejects.toThrow(
      /production does not merge cleanly into release\/v1.5.0: back-merge production into main first/,
    );
    expect(await originRefs()).not.toContain("release/");
    expect(gh.commits).toEqual([]);
  });
});
