import { type ChangeNote, noteBump } from "./changesets.ts";
import { ReleaseError } from "./errors.ts";
import type { BumpType } from "./version.ts";

const HEADER = "# Changelog\n";
const HEADINGS: [BumpType, string][] = [
  ["major", "Major changes"],
  ["minor", "Minor changes"],
  ["patch", "Patch changes"],
];

/**
 * The product changelog entry of a release, from the pending notes as authored (the workspace
 * CHANGELOG.md files that changesets writes also list dependency bumps; these do not belong here).
 */
export function renderReleaseSection(tag: string, notes: ChangeNote[]): string {
  const lines = [`## ${tag}`, ""];
  for (const [bump, heading] of HEADINGS) {
    const group = notes.filter((note) => noteBump(note) === bump);
    if (group.length === 0) continue;
    lines.push(`### ${heading}`, "");
    for (const note of group) {
      const workspaces = note.releases
        .filter(({ type }) => type !== "none")
        .map(({ name }) => `\`${name}\``)
        .join(", ");
      const [first = "", ...rest] = (note.summary || "(no summary)").split("\n");
      lines.push(`- ${first} (${workspaces})`, ...rest.map((line) => (line ? `  ${line}` : "")));
    }
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Puts a release's entry at the top of the root CHANGELOG.md text (newest first). */
export function prependReleaseSection(changelog: string | null, section: string): string {
  const body = (changelog ?? HEADER).startsWith(HEADER)
    ? (changelog ?? HEADER).slice(HEADER.length)
    : (changelog ?? "");
  return `${HEADER}\n${section}${body.trim() ? `\n${body.trimStart()}` : ""}`;
}

/** The entry of one release, as the release notes; a missing entry is an error, never empty notes. */
export function extractReleaseSection(changelog: string, tag: string): string {
  const lines = changelog.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${tag}`);
  if (start === -1) {
    throw new ReleaseError(
      `CHANGELOG.md has no "## ${tag}" entry: this tree was not made by the release cut`,
    );
  }
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join("\n")
    .trim();
}
