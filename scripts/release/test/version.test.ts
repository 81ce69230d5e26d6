import { afterEach, describe, expect, it } from "vitest";
import { ReleaseError } from "../errors.ts";
import { git, listReleaseTags } from "../git.ts";
import { bumpVersion, formatVersion, parseVersion, sortReleaseTags } from "../version.ts";
import { type Fixture, makeFixture } from "./support/fixture-repo.ts";

describe("product versions", () => {
  it("bumps by the type: major resets minor and patch, minor resets patch", () => {
    const v = parseVersion("v1.4.2");
    expect(formatVersion(bumpVersion(v, "major"))).toBe("2.0.0");
    expect(formatVersion(bumpVersion(v, "minor"))).toBe("1.5.0");
    expect(formatVersion(bumpVersion(v, "patch"))).toBe("1.4.3");
  });

  it("rejects build metadata with a message that names it", () => {
    expect(() => parseVersion("1.4.2+build.7")).toThrow(ReleaseError);
    expect(() => parseVersion("v1.4.2+sha.abc")).toThrow(/build metadata \("\+sha\.abc"\)/);
  });

  it("rejects pre-releases and anything that is not MAJOR.MINOR.PATCH", () => {
    expect(() => parseVersion("1.4.2-rc.1")).toThrow(/pre-release/);
    for (const bad of ["1.4", "01.2.3", "1.2.3.4", "latest", ""])
      expect(() => parseVersion(bad)).toThrow(ReleaseError);
  });
});

describe("release tags", () => {
  it("sort by version, newest first, never lexicographically", () => {
    expect(
      sortReleaseTags(["v1.9.3", "v1.10.0", "v1.2.10", "v1.2.9", "v2.0.0", "v0.99.0"]),
    ).toEqual(["v2.0.0", "v1.10.0", "v1.9.3", "v1.2.10", "v1.2.9", "v0.99.0"]);
  });

  it("leave out tags that are not releases", () => {
    expect(
      sortReleaseTags(["v1.0.0", "v1.1.0-rc.1", "v1.2.0+meta", "latest", "v2", "1.5.0"]),
    ).toEqual(["v1.0.0"]);
  });

  describe("in a repository", () => {
    let fixture: Fixture;
    afterEach(() => fixture.cleanup());

    it("are listed newest first whatever order git keeps them in", async () => {
      fixture = await makeFixture();
      for (const tag of ["v1.9.3", "v1.10.0", "v1.2.0", "vnext", "v1.10.0-rc.1"]) {
        await git(fixture.root, ["tag", tag]);
      }
      // git's own order is by name: v1.10.0 would come before v1.2.0 and v1.9.3 for the wrong reason.
      expect(await listReleaseTags(fixture.root)).toEqual(["v1.10.0", "v1.9.3", "v1.2.0"]);
    });
  });
});
