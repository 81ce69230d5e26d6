import type { ByteRange } from "../../../storage/index.ts";

/**
 * One `bytes=` range of RFC 9110, read without the object's size (the store resolves it, so a
 * ranged read needs no HEAD first): `a-b`, `a-` or `-n` as a ByteRange; "unsatisfiable" for
 * `-0`, whatever the size; null to serve the whole object (no header, several ranges, `b` < `a`,
 * or a form we do not serve). A range starting past the end is for the store to refuse.
 */
export function parseRange(header: string | undefined): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    // More bytes than any object holds: all of them.
    return Number.isSafeInteger(suffix) ? { suffix } : { offset: 0 };
  }
  const offset = Number(first);
  // Past the end of any object the store could hold.
  if (!Number.isSafeInteger(offset)) return "unsatisfiable";
  if (last === "") return { offset };
  const end = Number(last);
  if (!Number.isSafeInteger(end)) return { offset };
  if (end < offset) return null;
  return { offset, length: end - offset + 1 };
}
