import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyBump, planBump } from "../bump.ts";
import { deriveProductBump, parseChangeNote, readChangeNotes } from "../changesets.ts";
import { ReleaseError } from "../errors.ts";
import { worktreeChanges } from "../git.ts";
import { type Fixture, makeFixture, WORKSPACES } from "./support/fixture-repo.ts";

const all = new Set(Object.values(WORKSPACES));
const note = (id: string, front: string, summary = "A change.") =>
  parseChangeNote(id, `---\n${front}\n---\n\n${summary}\n`);

describe("the product bump", () => {
  it("is the highest bump authored: major over minor over patch", () => {
    const patch = note("a", `"@fx/core": patch`);
    const minor = note("b", `"@fx/app": minor\n"@fx/core": patch`);
    const major = note("c", `"@fx/tools": major`);
    expect(deriveProductBump([patch], all)).toBe("patch");
    expect(deriveProductBump([patch, minor], all)).toBe("minor");
    expect(deriveProductBump([minor, major, patch], all)).toBe("major");
  });

  it("fails without pending notes: it never defaults to patch", () => {
    expect(() => deriveProductBump([], all)).toThrow(/no pending change notes/);
  });

  it("fails on a bump type it cannot resolve, naming the file", () => {
    expect(() => note("typo", `"@fx/core": mayor`)).toThrow(
      /\.changeset\/typo\.md: cannot resolve the bump "mayor"/,
    );
    expect(() => note("list", `"@fx/core": [minor]`)).toThrow(ReleaseError);
  });

  it("fails on a workspace that does not exist", () => {
    expect(() => deriveProductBump([note("x", `"@fx/gone": minor`)], all)).toThrow(
      /"@fx\/gone" is not a workspace/,
    );
  });

  it("fails when the notes release nothing (empty or none)", () => {
    expect(() => deriveProductBump([note("e", ""), note("n", `"@fx/core": none`)], all)).toThrow(
      /release nothing/,
    );
  });

  it("ignores notes' 'none' next to real bumps", () => {
    expect(
      deriveProductBump([note("n", `"@fx/core": none`), note("p", `"@fx/app": patch`)], all),
    ).toBe("patch");
  });
});

describe("applying the bump", () => {
  let fixture: Fixture;
  afterEach(() => fixture.cleanup());

  it("counts only authored bumps: the dependent changesets patches is not the product's bump", async () => {
    fixture = await makeFixture("1.4.2");
    // core gets a patch; app bundles core, so changesets gives app a patch too. tools: untouched.
    await fixture.write(fixture.note("fix-core", { [WORKSPACES.core]: "patch" }, "Fix rounding."));
    const plan = await planBump(fixture.root);
    expect(plan.bump).toBe("patch");
    expect(plan.tag).toBe("v1.4.3");
    await applyBump(fixture.root, plan);

    const version = async (path: string) =>
      JSON.parse(await readFile(join(fixture.root, path), "utf8")).version;
    expect(await version("core/package.json")).toBe("0.3.1");
    expect(await version("app/package.json")).toBe("0.7.2"); // generated for the dependent
    expect(await version("tools/package.json")).toBe("2.0.0");
    expect(await version("package.json")).toBe("1.4.3");
    // The product changelog lists what authors wrote, not the dependency bumps.
    const changelog = await readFile(join(fixture.root, "CHANGELOG.md"), "utf8");
    expect(changelog).toContain("## v1.4.3\n\n### Patch changes\n\n- Fix rounding. (`@fx/core`)");
    expect(changelog).not.toContain("@fx/app");
    expect(await readChangeNotes(fixture.root)).toEqual([]); // consumed
  });

  it("derives minor from a minor note even when the tool bumps more workspaces", async () => {
    fixture = await makeFixture("0.9.0");
    await fixture.write({
      ...fixture.note("feature", { [WORKSPACES.core]: "minor" }, "Search by genre."),
      ...fixture.note("tooling", { [WORKSPACES.tools]: "patch" }, "Faster build."),
    });
    await fixture.commitAll("notes");
    const plan = await planBump(fixture.root);
    expect(plan.bump).toBe("minor");
    expect(plan.tag).toBe("v0.10.0");
    await applyBump(fixture.root, plan);
    const changes = await worktreeChanges(fixture.root);
    expect(changes.deletions).toEqual([".changeset/feature.md", ".changeset/tooling.md"]);
    expect(changes.additions).toEqual([
      "CHANGELOG.md",
      "app/CHANGELOG.md",
      "app/package.json",
      "core/CHANGELOG.md",
      "core/package.json",
      "package.json",
      "tools/CHANGELOG.md",
      "tools/package.json",
    ]);
  });

  it("keeps the root manifest byte for byte but for the version", async () => {
    fixture = await makeFixture("3.1.4");
    const before = await readFile(join(fixture.root, "package.json"), "utf8");
    await fixture.write(fixture.note("big", { [WORKSPACES.app]: "major" }, "Remove v0 routes."));
    await applyBump(fixture.root, await planBump(fixture.root));
    expect(await readFile(join(fixture.root, "package.json"), "utf8")).toBe(
      before.replace('"3.1.4"', '"4.0.0"'),
    );
  });

  it("refuses a root version with build metadata before touching anything", async () => {
    fixture = await makeFixture("1.4.2+ci.5");
    await fixture.write(fixture.note("x", { [WORKSPACES.core]: "patch" }, "x"));
    await expect(planBump(fixture.root)).rejects.toThrow(/build metadata/);
  });
});
