import { S3ServiceException } from "@aws-sdk/client-s3";
import { DrizzleQueryError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SourceMissingError } from "../../src/io/storage.ts";
import {
  classifyFailure,
  describeFailure,
  isBadInput,
  isFinalFailure,
  isShutdown,
  SHUTDOWN_REASON,
} from "../../src/job/failure.ts";
import { BadInputError } from "../../src/media/bad-input.ts";
import { ProcessFailedError, ProcessInterruptedError } from "../../src/media/ffmpeg/run.ts";

describe("isFinalFailure", () => {
  it.each([
    ["bad input on the first attempt", true, 0, 5, true],
    ["a hiccup on the first of five attempts", false, 0, 5, false],
    ["a hiccup on the fourth of five", false, 3, 5, false],
    ["a hiccup on the fifth (last) attempt", false, 4, 5, true],
    ["a job without attempts set (BullMQ: one attempt)", false, 0, undefined, true],
    ["attempts: 0 counts as one", false, 0, 0, true],
  ])("%s → %s", (_, permanent, attemptsMade, attempts, final) => {
    expect(isFinalFailure({ permanent, attemptsMade, attempts })).toBe(final);
  });

  it("recognises our own BadInputError only", () => {
    expect(isBadInput(new BadInputError("bad"))).toBe(true);
    expect(isBadInput(new Error("bad"))).toBe(false);
  });
});

/** An ffmpeg run that exited on its own, as runFfmpeg reports it. */
const ffmpegExit = (code: number | null, stderr: string) =>
  new ProcessFailedError(
    `ffmpeg failed (exit ${code}): ${stderr.trim().split("\n").at(-1)}`,
    code,
    stderr,
  );

describe("classifyFailure", () => {
  const decode = "The file could not be decoded as audio";
  it.each([
    [
      "no decoder for the stream",
      ffmpegExit(1, "Decoder (codec none) not found for input stream #0:0\n"),
      `${decode}: its audio format is not supported.`,
    ],
    [
      "a named codec without a decoder",
      ffmpegExit(1, "Decoder (codec ac4) not found for input stream #0:0\n"),
      `${decode}: its audio format (ac4) is not supported.`,
    ],
    [
      "most frames failing to decode (ffmpeg's exit 69)",
      ffmpegExit(69, "[flac @ 0x1] invalid residual\nError while decoding stream #0:0\n"),
      `${decode}: most of its audio frames are damaged.`,
    ],
    [
      "any other error of ffmpeg's own, paths removed",
      ffmpegExit(1, "/tmp/transcode-x/source.mp3: Invalid data found when processing input\n"),
      `${decode}: source.mp3: Invalid data found when processing input.`,
    ],
  ])("bad input, failed at once: %s", (_, error, reason) => {
    expect(classifyFailure(error)).toEqual({ permanent: true, reason });
  });

  it("keeps our own BadInputErrors permanent, with their reason", () => {
    expect(classifyFailure(new BadInputError("the file has no audio stream"))).toEqual({
      permanent: true,
      reason: "The file has no audio stream.",
    });
  });

  it.each([
    [
      "ffmpeg killed (SIGKILL: no exit code)",
      ffmpegExit(null, ""),
      "The conversion was interrupted (ffmpeg was stopped by a signal).",
    ],
    [
      "ffmpeg stopped by SIGTERM (its exit 255)",
      ffmpegExit(255, ""),
      "The conversion was interrupted (ffmpeg was stopped by a signal).",
    ],
    [
      "a full disk",
      ffmpegExit(1, "[hls @ 0x1] /tmp/w/out/segment_00003.m4s: No space left on device\n"),
      "The conversion server had a temporary fault (No space left on device).",
    ],
    [
      "memory exhausted",
      ffmpegExit(1, "Error while filtering: Cannot allocate memory\n"),
      "The conversion server had a temporary fault (Cannot allocate memory).",
    ],
    [
      "our own timeout or abort",
      new ProcessInterruptedError("ffmpeg timed out after 1200 s"),
      "The conversion was interrupted (ffmpeg timed out after 1200 s).",
    ],
    [
      "the source not in storage (yet)",
      new SourceMissingError(),
      "The uploaded source was not found in storage.",
    ],
    [
      "a storage error",
      new S3ServiceException({
        name: "SlowDown",
        $fault: "server",
        $metadata: { httpStatusCode: 503 },
        message: "Please reduce your request rate.",
      }),
      "A temporary storage error stopped the conversion (SlowDown).",
    ],
    [
      "a database error",
      new DrizzleQueryError("select 1", [], Object.assign(new Error("x"), { code: "57P01" })),
      "A temporary database error stopped the conversion (SQLSTATE 57P01).",
    ],
    [
      "a connection reset under a storage request",
      Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
      "The conversion server had a temporary fault (ECONNRESET).",
    ],
    ["a Redis error", new Error("Connection is closed."), "Connection is closed."],
  ])("transient, retried: %s", (_, error, reason) => {
    expect(classifyFailure(error)).toEqual({ permanent: false, reason });
  });
});

describe("isShutdown", () => {
  it("is the service's shutdown only, not another abort", () => {
    const abortWith = (reason?: unknown) => {
      const controller = new AbortController();
      controller.abort(reason);
      return controller.signal;
    };
    expect(isShutdown(abortWith(SHUTDOWN_REASON))).toBe(true);
    expect(isShutdown(abortWith("the other ffmpeg run failed"))).toBe(false);
    expect(isShutdown(abortWith())).toBe(false);
    expect(isShutdown(new AbortController().signal)).toBe(false);
    expect(isShutdown(undefined)).toBe(false);
  });
});

describe("describeFailure", () => {
  it("keeps our own messages, as one sentence", () => {
    expect(describeFailure(new BadInputError("the file has no audio stream"))).toBe(
      "The file has no audio stream.",
    );
    expect(describeFailure(new ProcessInterruptedError("ffmpeg timed out after 1200 s"))).toBe(
      "The conversion was interrupted (ffmpeg timed out after 1200 s).",
    );
    expect(describeFailure(new SourceMissingError())).toBe(
      "The uploaded source was not found in storage.",
    );
    expect(describeFailure(new Error("first line\n    at stack (file.ts:1:1)"))).toBe(
      "First line.",
    );
    expect(
      describeFailure(
        new Error(
          "ffmpeg failed (exit 1): /tmp/transcode-x1/out/hls/128/index.m3u8: No space left",
        ),
      ),
    ).toBe("ffmpeg failed (exit 1): index.m3u8: No space left.");
  });

  it("names storage and database errors without their internals", () => {
    const s3 = new S3ServiceException({
      name: "SlowDown",
      $fault: "server",
      $metadata: { httpStatusCode: 503 },
      message: "Please reduce your request rate. Bucket media key tracks/x",
    });
    expect(describeFailure(s3)).toBe(
      "A temporary storage error stopped the conversion (SlowDown).",
    );
    const pg = Object.assign(new Error("terminating connection"), { code: "57P01" });
    const query = new DrizzleQueryError("update tracks set secret = $1", ["x"], pg);
    expect(describeFailure(query)).toBe(
      "A temporary database error stopped the conversion (SQLSTATE 57P01).",
    );
    expect(describeFailure(query)).not.toContain("update");
  });

  it("caps the length and handles non-errors", () => {
    expect(describeFailure(new Error("x".repeat(1000))).length).toBeLessThanOrEqual(300);
    expect(describeFailure("a string")).toBe("The conversion failed.");
  });
});
