import { describe, expect, it } from "vitest";
import { uuidv7, uuidv7Time } from "../../src/features/history/uuidv7.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("uuidv7", () => {
  it("is a UUID of version 7 and variant 10", () => {
    for (let i = 0; i < 200; i++) {
      const id = uuidv7();
      expect(id).toMatch(UUID);
      expect(id[14]).toBe("7");
      expect(["8", "9", "a", "b"]).toContain(id[19]);
    }
  });

  it("carries its time as 48-bit big-endian milliseconds", () => {
    const ms = Date.UTC(2026, 10, 23, 10, 15, 30, 123);
    expect(uuidv7Time(uuidv7(ms))).toBe(ms);
    expect(uuidv7(0).startsWith("00000000-0000-7")).toBe(true);
    expect(uuidv7(2 ** 48 - 1).startsWith("ffffffff-ffff-7")).toBe(true);
  });

  it("sorts by time, as strings, across milliseconds", () => {
    const start = Date.UTC(2026, 0, 1);
    // Steps that cross byte boundaries of the timestamp (1, 255, 256, 65 536 ms ...).
    const times = [0, 1, 255, 256, 257, 65_535, 65_536, 16_777_216, 2 ** 32].map((d) => start + d);
    const ids = times.map((t) => uuidv7(t));
    expect([...ids].sort()).toEqual(ids);
    const shuffled = [...ids].reverse();
    expect(shuffled.sort()).toEqual(ids);
  });

  it("is random after the timestamp", () => {
    const ms = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => uuidv7(ms)));
    expect(ids.size).toBe(1000);
  });

  it("refuses times outside 48 bits or not whole milliseconds", () => {
    expect(() => uuidv7(-1)).toThrow(RangeError);
    expect(() => uuidv7(2 ** 48)).toThrow(RangeError);
    expect(() => uuidv7(1.5)).toThrow(RangeError);
    expect(() => uuidv7(Number.NaN)).toThrow(RangeError);
  });
});
