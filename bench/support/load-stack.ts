// The processes of the load benchmark beyond the stack's own: the transcoder, run as `./run dev`
// runs it (its own process, the real queue), and the named parts whose memory is sampled.
import {
  type DevWorker,
  type Infra,
  startTranscoderProcess,
  workerProcessId,
} from "@edge-music/stack";
import type { LogLines } from "./log-lines.ts";
import { commandLine, descendants, type Part } from "./proc-mem.ts";
import type { Lifecycle } from "./seed-stack.ts";

/** transcoder/src/main.ts against the stack; returns its pid. */
export function startTranscoder(life: Lifecycle, infra: Infra, log: LogLines) {
  const proc = startTranscoderProcess(infra, {
    // As `./run dev`: the bench's own variables reach it under the stack's.
    inherited: process.env,
    log: (line) => log.push(line),
  });
  life.defer(() => proc.stop());
  return proc.child.pid ?? 0;
}

/** The parts whose memory is sampled, found again at each sample (backends and ffmpeg come and go). */
export async function stackParts(worker: DevWorker, transcoderPid: number): Promise<Part[]> {
  const workerPid = workerProcessId(worker);
  const all = await descendants(process.pid);
  let s3Pid = 0;
  for (const p of all) if ((await commandLine(p.pid)).includes("s3-server-main")) s3Pid = p.pid;
  const tree = async (pid: number) => [pid, ...(await descendants(pid)).map((p) => p.pid)];
  const named = async (pid: number, names: string[], keep: boolean) =>
    (await descendants(pid)).filter((p) => names.includes(p.name) === keep).map((p) => p.pid);
  const ffmpeg = ["ffmpeg", "ffprobe"];
  return [
    {
      name: "wrangler (node, and its helpers)",
      pids: async () => [workerPid, ...(await named(workerPid, ["workerd"], false))],
    },
    // wrangler runs two: the Worker's own and its proxy in front of it (none of our code runs
    // there); the same curve on both says the runtime, not our code, holds the memory.
    ...[0, 1].map((i) => ({
      name: `workerd, ${i === 0 ? "first" : "second"} started`,
      pids: async () => {
        const pids = (await named(workerPid, ["workerd"], true)).sort((a, b) => a - b);
        return pids[i] === undefined ? [] : [pids[i]];
      },
    })),
    {
      name: "postgres (postmaster + backends)",
      pids: () => named(process.pid, ["postgres"], true),
    },
    // PgBouncer, in front of Postgres as Neon's pooled endpoint; its server connections are
    // backends above, kept open for reuse (at most its default_pool_size per database and user).
    { name: "pgbouncer (the pooler)", pids: () => named(process.pid, ["pgbouncer"], true) },
    { name: "redis-server", pids: () => named(process.pid, ["redis-server"], true) },
    { name: "s3 server (s3rver)", pids: () => tree(s3Pid) },
    {
      name: "transcoder (node)",
      pids: async () => [transcoderPid, ...(await named(transcoderPid, ffmpeg, false))],
    },
    { name: "ffmpeg/ffprobe of the transcoder", pids: () => named(transcoderPid, ffmpeg, true) },
    { name: "bench process (load, Neon bridge)", pids: async () => [process.pid] },
  ];
}
