import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { ReleaseError } from "./errors.ts";
import { BUMP_TYPES, type BumpType } from "./version.ts";

/** One pending change note (.changeset/<id>.md) as its author wrote it. */
export interface ChangeNote {
  id: string;
  /** Bumps the author chose, per workspace; "none" is a valid authored choice meaning no release. */
  releases: { name: string; type: BumpType | "none" }[];
  summary: string;
}

// The same frontmatter shape @changesets/parse accepts.
const FRONTMATTER = /\s*---([\s\S]*?)\r?\n\s*---(\s*(?:\n|$)[\s\S]*)/;
const AUTHORED_TYPES = new Set<string>([...BUMP_TYPES, "none"]);

/** Reads every pending note; a note that cannot be parsed stops the cut with its file name. */
export async function readChangeNotes(root: string): Promise<ChangeNote[]> {
  const dir = join(root, ".changeset");
  const files = (await readdir(dir)).filter((file) => file.endsWith(".md") && file !== "README.md");
  const notes: ChangeNote[] = [];
  for (const file of files.sort()) {
    notes.push(parseChangeNote(file.slice(0, -3), await readFile(join(dir, file), "utf8")));
  }
  return notes;
}

export function parseChangeNote(id: string, text: string): ChangeNote {
  const where = `.changeset/${id}.md`;
  const match = FRONTMATTER.exec(text);
  if (!match)
    throw new ReleaseError(`${where}: no frontmatter ("---" block naming workspaces and bumps)`);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "");
  } catch (err) {
    throw new ReleaseError(
      `${where}: the frontmatter is not valid YAML (${(err as Error).message})`,
    );
  }
  if (data !== null && (typeof data !== "object" || Array.isArray(data))) {
    throw new ReleaseError(`${where}: the frontmatter must map workspace names to bump types`);
  }
  const releases = Object.entries((data ?? {}) as Record<string, unknown>).map(([name, type]) => {
    if (typeof type !== "string" || !AUTHORED_TYPES.has(type)) {
      throw new ReleaseError(
        `${where}: cannot resolve the bump ${JSON.stringify(type)} for ${name} (expected major, minor, patch or none)`,
      );
    }
    return { name, type: type as BumpType | "none" };
  });
  return { id, releases, summary: (match[2] ?? "").trim() };
}

/** The highest authored bump of a note, or null when it releases nothing (empty or all "none"). */
export function noteBump(note: ChangeNote): BumpType | null {
  let best: BumpType | null = null;
  for (const { type } of note.releases) {
    if (type !== "none" && (best === null || BUMP_TYPES.indexOf(type) > BUMP_TYPES.indexOf(best))) {
      best = type;
    }
  }
  return best;
}

/**
 * The product's bump: the highest bump authored in the pending notes (major > minor > patch).
 * Only what authors wrote counts: the patch bumps changesets later adds for dependents never reach
 * this function. No notes, unknown workspaces or nothing but "none" stop the cut: it never guesses.
 */
export function deriveProductBump(notes: ChangeNote[], workspaces: ReadonlySet<string>): BumpType {
  if (notes.length === 0) {
    throw new ReleaseError(
      "no pending change notes in .changeset/: nothing to release (add one with `pnpm changeset`)",
    );
  }
  for (const note of notes) {
    for (const { name } of note.releases) {
      if (!workspaces.has(name)) {
        throw new ReleaseError(
          `.changeset/${note.id}.md: cannot resolve the bump: "${name}" is not a workspace (${[...workspaces].join(", ")})`,
        );
      }
    }
  }
  const bumps = notes.map(noteBump).filter((bump): bump is BumpType => bump !== null);
  if (bumps.length === 0) {
    throw new ReleaseError(
      "cannot resolve the bump: the pending change notes release nothing (every bump is empty or none)",
    );
  }
  return bumps.reduce((a, b) => (BUMP_TYPES.indexOf(b) > BUMP_TYPES.indexOf(a) ? b : a));
}
