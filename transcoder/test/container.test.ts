import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AUDIO_PROCESSING_QUEUE, AUDIO_PROCESSING_QUEUE_PREFIX } from "@edge-music/contracts";
import { Queue } from "bullmq";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { CONFIG_KEYS } from "../src/config.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const repo = here("../../");
const infra = inject("infra");
/** No other suite selects a Redis database: they all use 0 (a Redis Cluster has only that one). */
const OWN_REDIS_DATABASE = 15;

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code, signal) => {
      // Ended by a signal instead of its own exit: say which, for the failure's message.
      if (code === null) output += `\n[ended by ${signal}]`;
      resolve(code);
    }),
  );
  return { child, exited, output: () => output };
}

describe("the image's artefact (dist/main.mjs)", () => {
  beforeAll(async () => {
    const build = run(process.execPath, ["--import", "tsx", "build.ts"], { cwd: here("..") });
    expect(await build.exited, build.output()).toBe(0);
  }, 60_000);

  it("starts on a real Redis and exits 0 on SIGTERM", async (context) => {
    // The process takes the contract's queue, which the Worker's suites fill on this Redis's
    // database 0: it gets a database of its own, configured as production is, through REDIS_URL.
    const redisUrl = new URL(infra.redisUrl);
    redisUrl.pathname = `/${OWN_REDIS_DATABASE}`;
    context.onTestFinished(async () => {
      const queue = new Queue(AUDIO_PROCESSING_QUEUE, {
        connection: { url: redisUrl.toString() },
        prefix: AUDIO_PROCESSING_QUEUE_PREFIX,
      });
      await queue.obliterate({ force: true });
      await queue.close();
    });
    const proc = run(process.execPath, ["dist/main.mjs"], {
      cwd: here(".."),
      env: {
        PATH: process.env.PATH,
        REDIS_URL: redisUrl.toString(),
        DATABASE_URL: infra.databaseUrl,
      },
    });
    for (let i = 0; i < 100 && !proc.output().includes("transcoder started"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(proc.output()).toContain("transcoder started");
    expect(proc.output()).toContain(`"queue":"${AUDIO_PROCESSING_QUEUE}"`);
    proc.child.kill("SIGTERM");
    expect(await proc.exited, proc.output()).toBe(0);
    expect(proc.output()).toContain('"message":"stopped"');
  });

  it("refuses to start with a bad configuration, naming the variables", async () => {
    const proc = run(process.execPath, ["dist/main.mjs"], {
      cwd: here(".."),
      env: { PATH: process.env.PATH, REDIS_URL: "not a url" },
    });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/REDIS_URL[\s\S]*DATABASE_URL/);
  });
});

describe("compose.transcoder.yaml", () => {
  const compose = parse(readFileSync(`${repo}/compose.transcoder.yaml`, "utf8"));
  const transcoder = compose.services.transcoder;

  it("passes only variables the transcoder reads", () => {
    for (const key of Object.keys(transcoder.environment)) expect(CONFIG_KEYS).toContain(key);
  });

  it("gives a running conversion longer than the shutdown timeout before SIGKILL", () => {
    const grace = Number.parseInt(transcoder.stop_grace_period, 10) * 1000;
    const timeout = Number(
      /SHUTDOWN_TIMEOUT_MS:-(\d+)/.exec(transcoder.environment.SHUTDOWN_TIMEOUT_MS)?.[1],
    );
    expect(grace).toBeGreaterThan(timeout);
  });

  it("runs Redis as BullMQ requires (noeviction, AOF)", () => {
    const command = compose.services.redis.command.join(" ");
    expect(command).toContain("--maxmemory-policy noeviction");
    expect(command).toContain("--appendonly yes");
  });

  it("builds from a Dockerfile that exists", () => {
    expect(existsSync(`${repo}/${transcoder.build.context}/${transcoder.build.dockerfile}`)).toBe(
      true,
    );
  });
});

describe("transcoder/Dockerfile", () => {
  const dockerfile = readFileSync(here("../Dockerfile"), "utf8");
  const instructions = dockerfile.split("\n").filter((line) => /^[A-Z]+ /.test(line));

  it("pins its base images to the Node version the project runs", () => {
    const node = readFileSync(`${repo}/scripts/setup.sh`, "utf8").match(
      /node_version="([^"]+)"/,
    )?.[1];
    const bases = instructions.filter((l) => l.startsWith("FROM ")).map((l) => l.split(" ")[1]);
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases) expect(base).toBe(`node:${node}-bookworm-slim`);
  });

  it("installs ffmpeg, drops root and runs the bundle the build makes", () => {
    expect(dockerfile).toMatch(/apt-get install[^\n]*ffmpeg/);
    expect(instructions).toContain("USER node");
    expect(instructions.at(-2)).toBe('CMD ["node", "main.mjs"]');
    expect(readFileSync(here("../build.ts"), "utf8")).toContain('outfile: "dist/main.mjs"');
  });
});
