// Resident memory of the stack's processes, from Linux's /proc: VmRSS of every process of a part
// (a server and the children it forked), summed, with its anonymous share (RssAnon). Postgres
// backends map the same shared buffers, so their VmRSS sum counts those pages once per backend;
// RssAnon is each process's own memory, the figure that grows when something leaks.
import { readdir, readFile } from "node:fs/promises";

export interface Proc {
  pid: number;
  ppid: number;
  /** Command name (/proc/<pid>/comm): `node`, `workerd`, `postgres`, … */
  name: string;
}

/** Every live process below `root` (zombies left out). */
export async function descendants(root: number): Promise<Proc[]> {
  const all: Proc[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (!stat) continue;
    // "pid (comm) state ppid …": comm may hold spaces, so split after its last ")".
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (state === "Z") continue;
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    all.push({ pid: Number(entry), ppid: Number(ppid), name });
  }
  const found: Proc[] = [];
  const queue = [root];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const p of all.filter((q) => q.ppid === parent)) {
      found.push(p);
      queue.push(p.pid);
    }
  }
  return found;
}

/** The command line of a process, its arguments joined by spaces ("" once it is gone). */
export async function commandLine(pid: number): Promise<string> {
  const raw = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  return raw.split("\0").join(" ").trim();
}

export interface Memory {
  /** How many processes were summed. */
  processes: number;
  /** Kilobytes. */
  rssKb: number;
  anonKb: number;
  /**
   * CPU milliseconds so far (utime + stime + cutime + cstime, ticks of 10 ms): with the children
   * they reaped, so Postgres's backends, gone once their connection closes, count in the
   * postmaster's. A process that has exited without a parent in the part is lost to it.
   */
  cpuMs: number;
}

const field = (status: string, name: string) =>
  Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);

/** VmRSS, RssAnon and CPU time summed over `pids` (a process that has exited counts nothing). */
export async function memoryOf(pids: number[]): Promise<Memory> {
  const memory: Memory = { processes: 0, rssKb: 0, anonKb: 0, cpuMs: 0 };
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (!status || !stat) continue;
    memory.processes++;
    memory.rssKb += field(status, "VmRSS");
    memory.anonKb += field(status, "RssAnon");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    for (const i of [11, 12, 13, 14]) memory.cpuMs += Number(fields[i] ?? 0) * 10;
  }
  return memory;
}

/**
 * A named part of the stack: which processes it is made of, found again at every sample, since
 * Postgres forks a backend per connection and the transcoder an ffmpeg per job.
 */
export interface Part {
  name: string;
  pids(): Promise<number[]>;
}

/** One sample of every part. */
export async function sampleParts(parts: Part[]): Promise<Map<string, Memory>> {
  const sample = new Map<string, Memory>();
  for (const part of parts) sample.set(part.name, await memoryOf(await part.pids()));
  return sample;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

export const formatMemory = (m: Memory | undefined) =>
  m ? `${mb(m.rssKb)} (anon ${mb(m.anonKb)}, ${m.processes} proc)` : "-";

/** One line per part: at the start, the highest sample during the run, at the end, and the change. */
export function printMemory(
  parts: Part[],
  start: Map<string, Memory>,
  peak: Map<string, Memory>,
  end: Map<string, Memory>,
): void {
  console.log(
    `${"process (VmRSS summed over its processes)".padEnd(46)} ${"start".padEnd(36)} ${"peak during the run".padEnd(36)} ${"end".padEnd(36)} end − start  CPU s in between`,
  );
  for (const { name } of parts) {
    const [a, p, b] = [start.get(name), peak.get(name), end.get(name)];
    const delta = a && b ? `${((b.rssKb - a.rssKb) / 1024).toFixed(1)} MB` : "-";
    const cpu = a && b ? ((b.cpuMs - a.cpuMs) / 1000).toFixed(1) : "-";
    console.log(
      `${name.padEnd(46)} ${formatMemory(a).padEnd(36)} ${formatMemory(p).padEnd(36)} ${formatMemory(b).padEnd(36)} ${delta.padEnd(11)}  ${cpu}`,
    );
  }
}

/** Keeps, per part, the sample with the highest VmRSS. */
export function keepPeak(peak: Map<string, Memory>, sample: Map<string, Memory>): void {
  for (const [name, memory] of sample) {
    if ((peak.get(name)?.rssKb ?? -1) < memory.rssKb) peak.set(name, memory);
  }
}
