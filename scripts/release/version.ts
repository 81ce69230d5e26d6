import { ReleaseError } from "./errors.ts";

/** A product version: MAJOR.MINOR.PATCH, nothing else (no pre-release, no build metadata). */
export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export type BumpType = "major" | "minor" | "patch";

export const BUMP_TYPES: readonly BumpType[] = ["patch", "minor", "major"];

const CORE = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Parses "1.2.3" or "v1.2.3". Build metadata and pre-releases are refused with their own message. */
export function parseVersion(text: string): Version {
  const raw = text.trim().replace(/^v/, "");
  if (raw.includes("+")) {
    throw new ReleaseError(
      `version "${text}" carries build metadata ("+${raw.split("+").slice(1).join("+")}"); ` +
        "product versions are v<MAJOR>.<MINOR>.<PATCH> only",
    );
  }
  if (raw.includes("-")) {
    throw new ReleaseError(
      `version "${text}" is a pre-release; product versions are v<MAJOR>.<MINOR>.<PATCH> only`,
    );
  }
  const match = CORE.exec(raw);
  if (!match)
    throw new ReleaseError(`"${text}" is not a version of the form <MAJOR>.<MINOR>.<PATCH>`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

export function tagOf(version: Version): string {
  return `v${formatVersion(version)}`;
}

export function bumpVersion(version: Version, bump: BumpType): Version {
  switch (bump) {
    case "major":
      return { major: version.major + 1, minor: 0, patch: 0 };
    case "minor":
      return { major: version.major, minor: version.minor + 1, patch: 0 };
    case "patch":
      return { ...version, patch: version.patch + 1 };
  }
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** A release tag is exactly v<MAJOR>.<MINOR>.<PATCH>; anything else (v2-beta, latest) is not one. */
export function parseReleaseTag(tag: string): Version | null {
  if (!tag.startsWith("v")) return null;
  const match = CORE.exec(tag.slice(1));
  return match
    ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) }
    : null;
}

/** Release tags by version, newest first (v1.10.0 before v1.9.3); other tags are dropped. */
export function sortReleaseTags(tags: Iterable<string>): string[] {
  const releases: { tag: string; version: Version }[] = [];
  for (const tag of tags) {
    const version = parseReleaseTag(tag);
    if (version) releases.push({ tag, version });
  }
  return releases.sort((a, b) => compareVersions(b.version, a.version)).map(({ tag }) => tag);
}
