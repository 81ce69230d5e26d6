import { describe, expect, test } from "vitest";
import { formatPlays, formatPlaysShort } from "../src/ui/plays.tsx";

describe("a track's play count as people read it", () => {
  test("in full, with the word agreeing", () => {
    expect(formatPlays(0)).toBe("0 plays");
    expect(formatPlays(1)).toBe("1 play");
    expect(formatPlays(2)).toBe("2 plays");
    expect(formatPlays(1234)).toBe("1,234 plays");
    expect(formatPlays(1_234_567)).toBe("1,234,567 plays");
  });

  test("short in a row from 10,000 on, in full below", () => {
    expect(formatPlaysShort(9_999)).toBe("9,999 plays");
    expect(formatPlaysShort(12_345)).toBe("12.3K plays");
    expect(formatPlaysShort(120_000)).toBe("120K plays");
    expect(formatPlaysShort(1_250_000)).toBe("1.3M plays");
  });
});
