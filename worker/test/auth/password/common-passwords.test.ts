import { describe, expect, it } from "vitest";
import {
  COMMON_PASSWORDS_MIN_LENGTH,
  commonPasswordCount,
  isCommonPassword,
  isContextPassword,
} from "../../../src/features/auth/password/common-passwords.ts";

describe("isCommonPassword", () => {
  // All four are in the top 10,000 of the zxcvbn-ts list (ranks 795, 22, 6576 and 13).
  it.each(["password123", "qwertyuiop", "iloveyou1", "football"])("rejects %s", (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it("ignores case", () => {
    expect(isCommonPassword("Password123")).toBe(true);
    expect(isCommonPassword("QWERTYUIOP")).toBe(true);
  });

  it("compares as the hash does: a full-width or composed form of a listed password is listed", () => {
    expect(isCommonPassword("ｐａｓｓｗｏｒｄ１２３")).toBe(true);
    expect(isCommonPassword("Ｆｏｏｔｂａｌｌ")).toBe(true);
  });

  it("accepts a random password", () => {
    const random = Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) =>
      byte.toString(16).padStart(2, "0"),
    ).join("");
    expect(random).toHaveLength(20);
    expect(isCommonPassword(random)).toBe(false);
  });

  it("does not match a common password inside a longer one", () => {
    expect(isCommonPassword("password123 but longer")).toBe(false);
    expect(isCommonPassword("")).toBe(false);
  });

  it("holds the long entries of the top 10,000", () => {
    // 3,534 of the top 10,000 have 8+ characters; a broken split or filter lands far from that.
    expect(COMMON_PASSWORDS_MIN_LENGTH).toBe(8);
    expect(commonPasswordCount()).toBeGreaterThan(3_000);
    expect(commonPasswordCount()).toBeLessThanOrEqual(10_000);
  });
});

describe("isContextPassword", () => {
  it.each([
    "EdgeMusic2026!",
    "edge-music",
    "music stream 123",
    "ＥｄｇｅＭｕｓｉｃ",
    "songsongsong1",
  ])("refuses %s, made only of the service's words", (password) => {
    expect(isContextPassword(password)).toBe(true);
  });

  it.each(["edge of a music box", "my edgy music taste", "correct horse battery staple"])(
    "accepts %s, which has other words too",
    (password) => {
      expect(isContextPassword(password)).toBe(false);
    },
  );
});
