import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prependReleaseSection } from "../changelog.ts";
import { releaseConfig } from "../config.ts";
import { git } from "../git.ts";
import { openBackmerge, publish } from "../publish.ts";
import { anOpenPull, type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";
import { type Fixture, makeFixture } from "./support/fixture-repo.ts";

let fixture: Fixture;
let gh: FakeGitHub;
const log = () => {};
const writes = () => gh.requests.filter((r) => r.method !== "GET");

const SECTION = "## v1.5.0\n\n### Minor changes\n\n- Browse by genre. (`@fx/core`)\n";

/** Lands a merged release on production and checks it out, as the publish workflow does. */
async function mergeRelease(version: string, changelog: string | null): Promise<string> {
  const sha = await fixture.landOn("production", {
    "package.json": `{\n  "name": "fixture",\n  "version": "${version}",\n  "private": true\n}\n`,
    ...(changelog === null ? {} : { "CHANGELOG.md": changelog }),
  });
  await git(fixture.root, ["fetch", "--quiet", "origin"]);
  await git(fixture.root, ["checkout", "--quiet", "--detach", sha]);
  return sha;
}

beforeEach(async () => {
  fixture = await makeFixture("1.4.2");
  gh = await startFakeGitHub(fixture.origin);
});

afterEach(async () => {
  await gh.close();
  await fixture.cleanup();
});

describe("publish", () => {
  it("tags v<version> (annotated) on the pushed commit and publishes the changelog entry as the notes", async () => {
    const older = "## v1.4.2\n\n### Patch changes\n\n- Old fix. (`@fx/app`)\n";
    const sha = await mergeRelease(
      "1.5.0",
      prependReleaseSection(prependReleaseSection(null, older), SECTION),
    );

    const result = await publish({ root: fixture.root, sha, github: gh.github, log });

    expect(result).toMatchObject({ released: true, tag: "v1.5.0", sha });
    expect(await git(fixture.origin, ["cat-file", "-t", "refs/tags/v1.5.0"])).toBe("tag");
    expect(await git(fixture.origin, ["rev-parse", "refs/tags/v1.5.0^{commit}"])).toBe(sha);
    expect(gh.releases).toEqual([
      {
        tag_name: "v1.5.0",
        name: "v1.5.0",
        body: "### Minor changes\n\n- Browse by genre. (`@fx/core`)",
      },
    ]);
  });

  it("does nothing when the tag already exists: the push is not a release", async () => {
    const sha = await mergeRelease("1.5.0", prependReleaseSection(null, SECTION));
    await publish({ root: fixture.root, sha, github: gh.github, log });
    const before = writes().length;

    // The same tree pushed again (a hotfix merged without a cut, a re-run): no tag, no release.
    const again = await fixture.landOn("production", { "HOTFIX.md": "x\n" });
    await git(fixture.root, ["fetch", "--quiet", "origin"]);
    await git(fixture.root, ["checkout", "--quiet", "--detach", again]);
    expect(await publish({ root: fixture.root, sha: again, github: gh.github, log })).toEqual({
      released: false,
      tag: "v1.5.0",
    });
    expect(writes()).toHaveLength(before);
    expect(gh.releases).toHaveLength(1);
    expect(await git(fixture.origin, ["rev-parse", "refs/tags/v1.5.0^{commit}"])).toBe(sha);
  });

  it("refuses a tree the cut did not make (no changelog entry) before creating anything", async () => {
    const sha = await mergeRelease("1.5.0", null);
    await expect(publish({ root: fixture.root, sha, github: gh.github, log })).rejects.toThrow(
      /no "## v1.5.0" entry/,
    );
    expect(writes()).toEqual([]);
  });

  it("rejects a version with build metadata", async () => {
    const sha = await mergeRelease("1.5.0+build.3", prependReleaseSection(null, SECTION));
    await expect(publish({ root: fixture.root, sha, github: gh.github, log })).rejects.toThrow(
      /build metadata/,
    );
    expect(writes()).toEqual([]);
  });
});

describe("the back-merge", () => {
  it("opens backmerge/v<version> → main at the released commit, once", async () => {
    const sha = await mergeRelease("1.5.0", prependReleaseSection(null, SECTION));
    await openBackmerge({ github: gh.github, config: releaseConfig, tag: "v1.5.0", sha, log });
    await openBackmerge({ github: gh.github, config: releaseConfig, tag: "v1.5.0", sha, log }); // a re-run

    expect(await git(fixture.origin, ["rev-parse", "refs/heads/backmerge/v1.5.0"])).toBe(sha);
    expect(gh.pulls).toEqual([
      anOpenPull("backmerge/v1.5.0", "main", "Back-merge v1.5.0 into main"),
    ]);
  });
});
