import { describe, expect, it } from "vitest";
import { describeCommand, run } from "../exec.ts";

describe("run", () => {
  it("captures the output and the exit code, without a shell", async () => {
    const result = await run("sh", ["-c", 'printf "%s" "$0"; echo oops >&2; exit 3', "a b; c"], {
      cwd: process.cwd(),
    });
    expect(result).toEqual({ code: 3, stdout: "a b; c", stderr: "oops\n" });
  });

  it("writes the input to the child's stdin", async () => {
    const result = await run("cat", [], { cwd: process.cwd(), input: "secret\n" });
    expect(result).toEqual({ code: 0, stdout: "secret\n", stderr: "" });
  });

  it("answers with the exit code of a child that ends without reading its input", async () => {
    // More than a pipe holds: the write meets a closed pipe (EPIPE), which must not throw.
    const input = "x".repeat(4 * 1024 * 1024);
    for (const [command, code] of [
      ["true", 0],
      ["false", 1],
    ] as const) {
      await expect(run(command, [], { cwd: process.cwd(), input })).resolves.toMatchObject({
        code,
      });
    }
  });

  it("rejects a program that does not exist", async () => {
    await expect(run("no-such-program-here", [], { cwd: process.cwd() })).rejects.toThrow(/ENOENT/);
  });
});

describe("describeCommand", () => {
  it("quotes only the arguments that need it", () => {
    expect(describeCommand(["git", "tag", "-m", "a message", "v1.2.3"])).toBe(
      'git tag -m "a message" v1.2.3',
    );
  });
});
