// CPU time of running processes, from Linux's /proc: what workerd spends on the CPU, the measure
// Cloudflare bills, which a Worker cannot take itself (on Cloudflare its clocks stand still while
// it computes).
import { readdir, readFile } from "node:fs/promises";

/** Ids of the running children of process `parent` whose command name is `comm`. */
export async function childProcesses(parent: number, comm: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // "pid (comm) state ppid …": comm may hold spaces, so split after its last ")".
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (name === comm && state !== "Z" && Number(ppid) === parent) pids.push(Number(entry));
  }
  return pids;
}

/** Nanoseconds on a CPU so far, summed over every thread of these processes (schedstat). */
export async function cpuNs(pids: number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
      const line = await readFile(`/proc/${pid}/task/${tid}/schedstat`, "utf8").catch(() => "0");
      total += Number(line.split(" ")[0]);
    }
  }
  return total;
}
