import type { ReleaseConfig } from "./config.ts";
import type { GitHub } from "./github.ts";
import { compareVersions, formatVersion, parseReleaseTag, type Version } from "./version.ts";

export interface PreflightInput {
  github: GitHub;
  config: ReleaseConfig;
  /** The product version on the integration branch's head. */
  integrationVersion: Version;
  /** Release tags, newest first. */
  releaseTags: string[];
}

/**
 * Why a cut must not start now; empty when it may. Read-only: the dry run asks the same questions.
 * - a release/* pull request into the production branch is open (one release at a time);
 * - the previous back-merge is unmerged: its pull request is open, or the integration branch is
 *   still below the newest release (the back-merge was closed, or never opened).
 */
export async function refusalsToCut(input: PreflightInput): Promise<string[]> {
  const { github, config } = input;
  const reasons: string[] = [];
  for (const pull of await github.openPullsInto(config.productionBranch)) {
    if (pull.head.ref.startsWith(config.releaseBranchPrefix)) {
      reasons.push(
        `release pull request #${pull.number} (${pull.head.ref} → ${config.productionBranch}) is still open: merge or close it first (${pull.html_url})`,
      );
    }
  }
  for (const pull of await github.openPullsInto(config.integrationBranch)) {
    if (pull.head.ref.startsWith(config.backmergeBranchPrefix)) {
      reasons.push(
        `back-merge #${pull.number} (${pull.head.ref} → ${config.integrationBranch}) is not merged: merge it before the next cut (${pull.html_url})`,
      );
    }
  }
  const newest = input.releaseTags[0];
  const released = newest ? parseReleaseTag(newest) : null;
  if (newest && released && compareVersions(released, input.integrationVersion) > 0) {
    reasons.push(
      `${config.integrationBranch} is at ${formatVersion(input.integrationVersion)} but ${newest} is released: ` +
        `the back-merge of ${newest} has not landed (merge ${config.backmergeBranchPrefix}${newest} into ${config.integrationBranch})`,
    );
  }
  return reasons;
}
