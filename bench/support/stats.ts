/** Summary figures of a set of samples, in the samples' unit. */
export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(samples: number[]): Summary {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    n: sorted.length,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
  };
}

/** One printed line: `label  n=… mean=… p50=… p95=… p99=… max=… unit`. */
export function report(label: string, samples: number[], unit = "ms"): void {
  const s = summarize(samples);
  const f = (v: number) => v.toFixed(2);
  console.log(
    `${label.padEnd(44)} n=${s.n} mean=${f(s.mean)} p50=${f(s.p50)} p95=${f(s.p95)} p99=${f(s.p99)} max=${f(s.max)} ${unit}`,
  );
}

/** Runs `fn` `n` times in sequence after `warmup` unmeasured runs; returns milliseconds per run. */
export async function time(n: number, fn: () => Promise<unknown>, warmup = 20): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}
