import { S3ServiceException } from "@aws-sdk/client-s3";
import { UnrecoverableError } from "bullmq";
import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { describeFailure, isFinalFailure, isUnrecoverable } from "../src/failure.ts";
import { ProcessInterruptedError } from "../src/ffmpeg/run.ts";
import { SourceMissingError } from "../src/storage.ts";

describe("isFinalFailure", () => {
  it.each([
    ["bad input on the first attempt", true, 0, 5, true],
    ["a hiccup on the first of five attempts", false, 0, 5, false],
    ["a hiccup on the fourth of five", false, 3, 5, false],
    ["a hiccup on the fifth (last) attempt", false, 4, 5, true],
    ["a job without attempts set (BullMQ: one attempt)", false, 0, undefined, true],
    ["attempts: 0 counts as one", false, 0, 0, true],
  ])("%s → %s", (_, unrecoverable, attemptsMade, attempts, final) => {
    expect(isFinalFailure({ unrecoverable, attemptsMade, attempts })).toBe(final);
  });

  it("recognises BullMQ's UnrecoverableError only", () => {
    expect(isUnrecoverable(new UnrecoverableError("bad"))).toBe(true);
    expect(isUnrecoverable(new Error("bad"))).toBe(false);
  });
});

describe("describeFailure", () => {
  it("keeps our own messages, on one line", () => {
    expect(describeFailure(new UnrecoverableError("the file has no audio stream"))).toBe(
      "the file has no audio stream",
    );
    expect(describeFailure(new ProcessInterruptedError("ffmpeg timed out after 1200 s"))).toBe(
      "ffmpeg timed out after 1200 s",
    );
    expect(describeFailure(new SourceMissingError())).toBe(
      "the uploaded source was not found in storage",
    );
    expect(describeFailure(new Error("first line\n    at stack (file.ts:1:1)"))).toBe("first line");
    expect(
      describeFailure(
        new Error(
          "ffmpeg failed (exit 1): /tmp/transcode-x1/out/hls/128/index.m3u8: No space left",
        ),
      ),
    ).toBe("ffmpeg failed (exit 1): index.m3u8: No space left");
  });

  it("names storage and database errors without their internals", () => {
    const s3 = new S3ServiceException({
      name: "SlowDown",
      $fault: "server",
      $metadata: { httpStatusCode: 503 },
      message: "Please reduce your request rate. Bucket media key tracks/x",
    });
    expect(describeFailure(s3)).toBe("temporary storage error (SlowDown)");
    const pg = Object.assign(new Error("terminating connection"), { code: "57P01" });
    const query = new DrizzleQueryError("update tracks set secret = $1", ["x"], pg);
    expect(describeFailure(query)).toBe("temporary database error (SQLSTATE 57P01)");
    expect(describeFailure(query)).not.toContain("update");
  });

  it("caps the length and handles non-errors", () => {
    expect(describeFailure(new Error("x".repeat(1000))).length).toBeLessThanOrEqual(300);
    expect(describeFailure("a string")).toBe("conversion failed");
  });
});
