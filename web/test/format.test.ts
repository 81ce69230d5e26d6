import { describe, expect, test } from "vitest";
import { formatTotal, shownName } from "../src/ui/format.ts";

describe("numbers and names as people read them", () => {
  test("an album's running time adds what is known, in minutes or hours", () => {
    expect(formatTotal([20.4, 20.4, 20.4])).toBe("1:01");
    expect(formatTotal([null, 65])).toBe("1:05");
    expect(formatTotal([])).toBe("0:00");
    expect(formatTotal([3599.9, 1])).toBe("1:00:00");
    expect(formatTotal([3600 + 2 * 60 + 9])).toBe("1:02:09");
  });

  test("an artist is shown by display name, else by username", () => {
    expect(shownName({ username: "luna_h", displayName: "Luna Harbor" })).toBe("Luna Harbor");
    expect(shownName({ username: "luna_h", displayName: null })).toBe("luna_h");
    expect(shownName({ username: "luna_h" })).toBe("luna_h");
  });
});
