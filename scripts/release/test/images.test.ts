import { afterEach, describe, expect, it } from "vitest";
import { releaseConfig } from "../config.ts";
import { git } from "../git.ts";
import {
  type Docker,
  dockerTag,
  imageTags,
  planPush,
  publishImages,
  type ResolvedRelease,
  resolveRelease,
} from "../images.ts";
import { type Fixture, makeFixture } from "./support/fixture-repo.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const release = (newest: boolean): ResolvedRelease => ({
  tag: "v1.5.0",
  version: { major: 1, minor: 5, patch: 0 },
  sha: SHA,
  newest,
});
const tagsOf = (newest: boolean) =>
  imageTags({
    registry: "ghcr.io/acme",
    image: "transcoder",
    release: release(newest),
    productionBranch: "production",
  });

describe("image tags", () => {
  it("are v<version> and the commit hash (immutable) and the production branch (moving)", () => {
    expect(tagsOf(true)).toEqual([
      { ref: "ghcr.io/acme/transcoder:v1.5.0", immutable: true },
      { ref: `ghcr.io/acme/transcoder:${SHA}`, immutable: true },
      { ref: "ghcr.io/acme/transcoder:production", immutable: false },
    ]);
  });

  it("leave the moving tag alone when an older release is rebuilt", () => {
    expect(tagsOf(false).map((t) => t.ref)).toEqual([
      "ghcr.io/acme/transcoder:v1.5.0",
      `ghcr.io/acme/transcoder:${SHA}`,
    ]);
  });

  it("turn a branch name into a valid docker tag", () => {
    expect(dockerTag("release/v1.5.0")).toBe("release-v1.5.0");
    expect(dockerTag("production")).toBe("production");
  });
});

describe("the push plan", () => {
  it("builds and pushes every tag of a new release", () => {
    expect(planPush(tagsOf(true), new Set())).toEqual({
      build: true,
      push: tagsOf(true).map((t) => t.ref),
      alias: [],
      kept: [],
    });
  });

  it("never overwrites an immutable tag: an existing release only moves the moving tag to it", () => {
    const existing = new Set(
      tagsOf(true)
        .filter((t) => t.immutable)
        .map((t) => t.ref),
    );
    expect(planPush(tagsOf(true), existing)).toEqual({
      build: false,
      push: [],
      alias: [{ from: "ghcr.io/acme/transcoder:v1.5.0", to: "ghcr.io/acme/transcoder:production" }],
      kept: [...existing],
    });
  });

  it("pushes only what is missing when a previous run stopped half way", () => {
    const plan = planPush(tagsOf(false), new Set([`ghcr.io/acme/transcoder:${SHA}`]));
    expect(plan).toMatchObject({ build: true, push: ["ghcr.io/acme/transcoder:v1.5.0"] });
  });
});

describe("images of a tag", () => {
  let fixture: Fixture;
  afterEach(() => fixture.cleanup());

  const fakeDocker = (existing: string[] = []) => {
    const calls: string[] = [];
    const docker: Docker = {
      exists: async (ref) => existing.includes(ref),
      build: async ({ dockerfile, tags }) =>
        void calls.push(`build ${dockerfile} ${tags.join(",")}`),
      push: async (ref) => void calls.push(`push ${ref}`),
      alias: async (from, to) => void calls.push(`alias ${to}=${from}`),
    };
    return { docker, calls };
  };

  async function tagged(versions: string[]): Promise<Record<string, string>> {
    fixture = await makeFixture("1.0.0");
    const shas: Record<string, string> = {};
    for (const version of versions) {
      shas[version] = await fixture.landOn("production", {
        "package.json": `{ "name": "fixture", "version": "${version}" }\n`,
      });
      await git(fixture.origin, ["tag", "-a", "-m", version, `v${version}`, shas[version] ?? ""]);
    }
    await git(fixture.root, ["fetch", "--quiet", "--tags", "origin"]);
    return shas;
  }

  /** publishImages of a tag of the fixture to ghcr.io/acme, for the repository acme/edge. */
  async function publish(
    tag: string,
    o: { dryRun: boolean; docker: Docker; log: (line: string) => void },
  ) {
    await publishImages({
      root: fixture.root,
      config: releaseConfig,
      release: await resolveRelease(fixture.root, tag),
      registry: "ghcr.io/acme",
      repository: "acme/edge",
      ...o,
    });
  }

  it("resolve to their commit; newest is decided by version, not by name", async () => {
    const shas = await tagged(["1.9.3", "1.10.0"]);
    expect(await resolveRelease(fixture.root, "v1.10.0")).toEqual({
      tag: "v1.10.0",
      version: { major: 1, minor: 10, patch: 0 },
      sha: shas["1.10.0"],
      newest: true,
    });
    expect((await resolveRelease(fixture.root, "v1.9.3")).newest).toBe(false);
  });

  it("refuse tags that are not releases of their tree", async () => {
    await tagged(["1.2.0"]);
    await git(fixture.root, ["tag", "v9.9.9"]); // points at a tree whose version is 1.0.0
    await expect(resolveRelease(fixture.root, "v9.9.9")).rejects.toThrow(
      /version is 1.0.0: not a release of v9.9.9/,
    );
    await expect(resolveRelease(fixture.root, "v1.2.0+meta")).rejects.toThrow(/build metadata/);
    await expect(resolveRelease(fixture.root, "vnext")).rejects.toThrow(/not a version/);
    await expect(resolveRelease(fixture.root, "v3.0.0")).rejects.toThrow(
      /tag v3.0.0 does not exist/,
    );
  });

  it("dry run builds every configured image and pushes nothing", async () => {
    await tagged(["1.2.0"]);
    const { docker, calls } = fakeDocker();
    const lines: string[] = [];
    await publish("v1.2.0", { dryRun: true, docker, log: (l) => lines.push(l) });
    expect(calls.map((c) => c.split(" ")[0])).toEqual(releaseConfig.images.map(() => "build"));
    expect(lines.filter((l) => l.startsWith("[dry run] would push"))).toHaveLength(
      releaseConfig.images.length * 3,
    );
  });

  it("a real run pushes the three tags of every image, keeping existing immutable ones", async () => {
    const shas = await tagged(["1.2.0"]);
    const { docker, calls } = fakeDocker([
      "ghcr.io/acme/migrate:v1.2.0",
      `ghcr.io/acme/migrate:${shas["1.2.0"]}`,
    ]);
    await publish("v1.2.0", { dryRun: false, docker, log: () => {} });
    expect(calls).toEqual([
      `build transcoder/Dockerfile ghcr.io/acme/transcoder:v1.2.0,ghcr.io/acme/transcoder:${shas["1.2.0"]},ghcr.io/acme/transcoder:production`,
      "push ghcr.io/acme/transcoder:v1.2.0",
      `push ghcr.io/acme/transcoder:${shas["1.2.0"]}`,
      "push ghcr.io/acme/transcoder:production",
      "alias ghcr.io/acme/migrate:production=ghcr.io/acme/migrate:v1.2.0",
    ]);
  });
});
