import type { ReleaseConfig } from "./config.ts";
import { ReleaseError } from "./errors.ts";
import { describeCommand, run } from "./exec.ts";
import { git, gitMaybe, listReleaseTags } from "./git.ts";
import { compareVersions, parseReleaseTag, parseVersion, type Version } from "./version.ts";

/** A release tag resolved in a local clone: the commit it names and whether it is the newest. */
export interface ResolvedRelease {
  tag: string;
  version: Version;
  sha: string;
  newest: boolean;
}

export async function resolveRelease(root: string, tag: string): Promise<ResolvedRelease> {
  const version = parseVersion(tag); // build metadata and pre-releases get their own message
  if (!parseReleaseTag(tag))
    throw new ReleaseError(`"${tag}" is not a release tag (v<MAJOR>.<MINOR>.<PATCH>)`);
  const sha = await gitMaybe(root, [
    "rev-parse",
    "--verify",
    "--quiet",
    `refs/tags/${tag}^{commit}`,
  ]);
  if (!sha)
    throw new ReleaseError(`tag ${tag} does not exist in this clone (fetched with its tags?)`);
  const manifest = JSON.parse(await git(root, ["show", `${sha}:package.json`])) as {
    version?: string;
  };
  if (!manifest.version || compareVersions(parseVersion(manifest.version), version) !== 0) {
    throw new ReleaseError(
      `tag ${tag} names a tree whose version is ${manifest.version}: not a release of ${tag}`,
    );
  }
  const newest = (await listReleaseTags(root))[0] === tag;
  return { tag, version, sha, newest };
}

export interface ImageTag {
  ref: string;
  /** Immutable tags are never overwritten; the moving one follows the newest release. */
  immutable: boolean;
}

/** Docker tags allow [A-Za-z0-9_.-], 128 characters; a branch like "release/x" becomes "release-x". */
export function dockerTag(name: string): string {
  return name
    .replace(/[^A-Za-z0-9_.-]/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 128);
}

/**
 * The three tags of an image: v<version> (the rollback handle) and the commit hash, both
 * immutable, and the production branch name, which moves. An older release rebuilt later does not
 * take the moving tag back.
 */
export function imageTags(input: {
  registry: string;
  image: string;
  release: ResolvedRelease;
  productionBranch: string;
}): ImageTag[] {
  const base = `${input.registry}/${input.image}`;
  const tags: ImageTag[] = [
    { ref: `${base}:${input.release.tag}`, immutable: true },
    { ref: `${base}:${input.release.sha}`, immutable: true },
  ];
  if (input.release.newest)
    tags.push({ ref: `${base}:${dockerTag(input.productionBranch)}`, immutable: false });
  return tags;
}

export interface PushPlan {
  /** Build only when an immutable tag is missing: what exists is never rebuilt over. */
  build: boolean;
  push: string[];
  /** Point the moving tag at the existing release image (no rebuild, same digest). */
  alias: { from: string; to: string }[];
  kept: string[];
}

export function planPush(tags: ImageTag[], existing: ReadonlySet<string>): PushPlan {
  const immutable = tags.filter((t) => t.immutable);
  const missing = immutable.filter((t) => !existing.has(t.ref));
  const kept = immutable.filter((t) => existing.has(t.ref)).map((t) => t.ref);
  const moving = tags.filter((t) => !t.immutable).map((t) => t.ref);
  const handle = immutable[0]?.ref ?? "";
  if (missing.length === 0) {
    return { build: false, push: [], alias: moving.map((to) => ({ from: handle, to })), kept };
  }
  return { build: true, push: [...missing.map((t) => t.ref), ...moving], alias: [], kept };
}

export interface Docker {
  exists(ref: string): Promise<boolean>;
  build(input: {
    root: string;
    dockerfile: string;
    tags: string[];
    labels: Record<string, string>;
  }): Promise<void>;
  push(ref: string): Promise<void>;
  alias(from: string, to: string): Promise<void>;
}

async function docker(args: string[], root: string, inherit = true): Promise<number> {
  return (await run("docker", args, { cwd: root, inherit })).code;
}

async function dockerOrFail(args: string[], root: string): Promise<void> {
  if ((await docker(args, root)) !== 0)
    throw new ReleaseError(`failed: ${describeCommand(["docker", ...args])}`);
}

export function dockerCli(root: string): Docker {
  return {
    exists: async (ref) => (await docker(["manifest", "inspect", ref], root, false)) === 0,
    build: ({ dockerfile, tags, labels }) =>
      dockerOrFail(
        [
          "build",
          "--file",
          dockerfile,
          ...tags.flatMap((t) => ["--tag", t]),
          ...Object.entries(labels).flatMap(([k, v]) => ["--label", `${k}=${v}`]),
          ".",
        ],
        root,
      ),
    push: (ref) => dockerOrFail(["push", ref], root),
    alias: (from, to) => dockerOrFail(["buildx", "imagetools", "create", "--tag", to, from], root),
  };
}

/** Builds every configured image of a release and, unless dryRun, pushes its tags. */
export async function publishImages(o: {
  root: string;
  config: ReleaseConfig;
  release: ResolvedRelease;
  registry: string;
  repository: string;
  dryRun: boolean;
  docker: Docker;
  log: (line: string) => void;
}): Promise<Record<string, PushPlan>> {
  const plans: Record<string, PushPlan> = {};
  for (const image of o.config.images) {
    const tags = imageTags({
      registry: o.registry,
      image: image.name,
      release: o.release,
      productionBranch: o.config.productionBranch,
    });
    const existing = new Set<string>();
    for (const tag of tags.filter((t) => t.immutable))
      if (await o.docker.exists(tag.ref)) existing.add(tag.ref);
    const plan = planPush(tags, existing);
    plans[image.name] = plan;
    for (const ref of plan.kept)
      o.log(`${image.name}: ${ref} exists and is immutable: kept as it is`);
    if (plan.build) {
      o.log(`${image.name}: building ${image.dockerfile}`);
      await o.docker.build({
        root: o.root,
        dockerfile: image.dockerfile,
        tags: tags.map((t) => t.ref),
        labels: {
          "org.opencontainers.image.version": o.release.tag,
          "org.opencontainers.image.revision": o.release.sha,
          "org.opencontainers.image.source": `https://github.com/${o.repository}`,
        },
      });
    }
    for (const ref of plan.push) {
      if (o.dryRun) o.log(`[dry run] would push ${ref}`);
      else await o.docker.push(ref);
    }
    for (const { from, to } of plan.alias) {
      if (o.dryRun) o.log(`[dry run] would point ${to} at ${from}`);
      else await o.docker.alias(from, to);
    }
  }
  return plans;
}
