import type { ByteRange } from "../../../storage/index.ts";

/**
 * One `bytes=` range of RFC 9110 against an object of `size` bytes: a ByteRange, "unsatisfiable",
 * or null to serve the whole object (no header, several ranges, or a form we do not serve).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const offset = Number(first);
  if (offset >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < offset) return null;
  return { offset, length: end - offset + 1 };
}
