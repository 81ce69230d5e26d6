import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { extractReleaseSection } from "./changelog.ts";
import type { ReleaseConfig } from "./config.ts";
import type { GitHub } from "./github.ts";
import { readProductVersion } from "./manifest.ts";
import { tagOf } from "./version.ts";

export interface PublishOptions {
  /** A checkout of the pushed production commit. */
  root: string;
  /** The pushed commit (GITHUB_SHA). */
  sha: string;
  github: GitHub;
  log: (line: string) => void;
}

export type PublishResult =
  | { released: false; tag: string }
  | { released: true; tag: string; sha: string; releaseUrl: string };

/**
 * Publishes the version of the merged tree. A push whose tag already exists is not a release
 * (a re-run, a hotfix merged without a cut): nothing is created and the caller stops there.
 */
export async function publish(o: PublishOptions): Promise<PublishResult> {
  const tag = tagOf(await readProductVersion(o.root));
  const existing = await o.github.getRef(`tags/${tag}`);
  if (existing) {
    o.log(`tag ${tag} already exists (${existing.sha}): this push is not a release; nothing to do`);
    return { released: false, tag };
  }
  // Read before creating anything: a tree without its changelog entry was not cut, so stop here.
  const changelog = await readFile(join(o.root, "CHANGELOG.md"), "utf8").catch(() => "");
  const notes = extractReleaseSection(changelog, tag);
  const tagObject = await o.github.createTagObject(tag, `edge-music ${tag}\n\n${notes}\n`, o.sha);
  await o.github.createRef(`tags/${tag}`, tagObject);
  o.log(`created annotated tag ${tag} → ${o.sha}`);
  const release = await o.github.createRelease({ tag_name: tag, name: tag, body: notes });
  o.log(`published release ${release.html_url}`);
  return { released: true, tag, sha: o.sha, releaseUrl: release.html_url };
}

/**
 * Opens backmerge/<tag> → integration branch, bringing the bumps and consumed notes back.
 * Safe to run again: an existing branch or pull request is reused.
 */
export async function openBackmerge(o: {
  github: GitHub;
  config: ReleaseConfig;
  tag: string;
  sha: string;
  log: (line: string) => void;
}): Promise<string> {
  const branch = `${o.config.backmergeBranchPrefix}${o.tag}`;
  const base = o.config.integrationBranch;
  if (!(await o.github.getRef(`heads/${branch}`)))
    await o.github.createRef(`heads/${branch}`, o.sha);
  const open = (await o.github.openPullsInto(base)).find((pull) => pull.head.ref === branch);
  if (open) {
    o.log(`back-merge already open: ${open.html_url}`);
    return open.html_url;
  }
  const pull = await o.github.createPull({
    title: `Back-merge ${o.tag} into ${base}`,
    head: branch,
    base,
    body: `Brings the version bumps and consumed change notes of ${o.tag} back to \`${base}\`. Merge it (a merge commit, not a squash, keeps ${o.tag} an ancestor of \`${base}\`) before the next cut: the cut refuses to run while it is open.\n`,
  });
  o.log(`opened back-merge ${pull.html_url}`);
  return pull.html_url;
}
