// The Worker isolate's own CPU time per request, read from workerd's DevTools inspector (the
// V8 sampling profiler, through wrangler's inspector proxy): what the Worker's code costs, without
// workerd's HTTP handling, the dev proxy in front of it or the other threads that /proc counts.
import CDP from "chrome-remote-interface";

/** One sample every 100 µs: fine enough for requests of a few milliseconds. */
const SAMPLING_INTERVAL_US = 100;
/**
 * The most one sample stands for. V8 takes no samples while the isolate waits for I/O (workerd
 * does not mark it idle), so the first sample after a wait carries the whole wait in its delta;
 * capped, a wait adds at most this much.
 */
const SAMPLE_CAP_US = 3 * SAMPLING_INTERVAL_US;

export interface CpuSplit {
  /** JavaScript and garbage collection: the Worker's own code, ms. */
  js: number;
  /** "(program)": V8 busy outside JavaScript (compiling, the runtime's own native work), ms. */
  program: number;
}

export interface IsolateCpu {
  /** Runs `request` with the profiler on and answers where the isolate spent its time. */
  measure(request: () => Promise<unknown>): Promise<CpuSplit>;
  close(): Promise<void>;
}

export async function connectIsolateCpu(port: number): Promise<IsolateCpu> {
  // The proxy lists the Worker's isolate as a target once it has served a request.
  const listing = await fetch(`http://127.0.0.1:${port}/json`);
  const text = await listing.text();
  if (!listing.ok) throw new Error(`inspector /json answered ${listing.status}: ${text}`);
  const target = (JSON.parse(text) as Array<{ webSocketDebuggerUrl?: string }>).find(
    (t) => t.webSocketDebuggerUrl,
  )?.webSocketDebuggerUrl;
  if (!target) throw new Error(`no inspectable isolate on port ${port}: ${text}`);
  // The bundled protocol description (the proxy does not serve /json/protocol).
  const client = await CDP({ target, local: true });
  await client.Profiler.enable();
  await client.Profiler.setSamplingInterval({ interval: SAMPLING_INTERVAL_US });
  return {
    async measure(request) {
      await client.Profiler.start();
      try {
        await request();
      } catch (error) {
        await client.Profiler.stop();
        throw error;
      }
      const { profile } = await client.Profiler.stop();
      const kind = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      const split = { js: 0, program: 0 };
      // Each delta is the time up to its sample, spent where that sample found the isolate
      // (capped: see SAMPLE_CAP_US).
      for (let i = 0; i < samples.length; i++) {
        const where = kind.get(samples[i] as number);
        const us = Math.min(deltas[i] ?? 0, SAMPLE_CAP_US);
        if (where === "(idle)") continue;
        if (where === "(program)") split.program += us / 1000;
        else split.js += us / 1000;
      }
      return split;
    },
    async close() {
      await client.close();
    },
  };
}
