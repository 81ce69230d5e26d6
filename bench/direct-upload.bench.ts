// A direct (multipart) upload of a large WAV through the real Worker (wrangler dev) on the local
// stack, as a client does it: POST /uploads, PUT every part to its presigned URL
// (BENCH_PARALLEL at a time, default 4), POST /uploads/{id}/complete. BENCH_MB (default 300).
// Figures: each step's time and the parts' throughput, against one plain PUT of the whole file
// to the same S3 server (what the store itself takes), BENCH_ROUNDS rounds (default 2),
// interleaved. The form upload (POST /tracks) cannot take the file at all: a Worker accepts at
// most 100 MB per request. Asserts nothing.
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { lifecycle, loadLine, startMigratedInfra, startWorker } from "./support/seed-stack.ts";
import { summarize } from "./support/stats.ts";

const MB = Number(process.env.BENCH_MB ?? 300);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const run = promisify(execFile);

const life = await lifecycle("direct-upload");
try {
  const infra = await startMigratedInfra(life);
  const worker = await startWorker(life, infra);
  console.log(`${MB} MB WAV · ${PARALLEL} parts at a time · ${loadLine("at start")}`);

  // Stereo 48 kHz 24-bit (288 kB/s): a tone long enough for BENCH_MB.
  const file = join(life.tmp, "long.wav");
  const seconds = Math.ceil((MB * 1_000_000) / 288_000);
  await run("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-f", "lavfi"],
    ...["-i", `sine=frequency=330:sample_rate=48000:duration=${seconds}`],
    ...["-ac", "2", "-c:a", "pcm_s24le", "-y", file],
  ]);
  const bytes = new Uint8Array(await readFile(file));
  console.log(`source: ${(bytes.length / 1e6).toFixed(1)} MB, ${seconds} s`);

  const suffix = crypto.randomUUID().slice(0, 8);
  const register = await fetch(`${worker.url}/api/v1/artists/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": "10.9.0.3" },
    body: JSON.stringify({
      username: `up_${suffix}`,
      email: `up-${suffix}@bench.test`,
      password: `pw-${crypto.randomUUID()}`,
    }),
  });
  if (register.status !== 201) throw new Error(`register: ${register.status}`);
  const cookie =
    register.headers
      .getSetCookie()
      .find((c) => c.startsWith("access_token="))
      ?.split(";")[0] ?? "";
  const api = (path: string, body?: unknown) =>
    fetch(`${worker.url}/api/v1${path}`, {
      method: "POST",
      headers: { cookie, origin: worker.url, "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });

  const figures = { start: [], parts: [], complete: [], total: [], plain: [] } as Record<
    string,
    number[]
  >;
  for (let round = 1; round <= ROUNDS; round++) {
    // The store alone: one PUT of the whole file (s3rver takes unsigned requests).
    const plainAt = performance.now();
    const plain = await fetch(`${infra.s3.endpoint}/${infra.s3.bucket}/bench/plain-${round}.wav`, {
      method: "PUT",
      body: bytes,
    });
    if (!plain.ok) throw new Error(`plain put: ${plain.status}`);
    figures.plain?.push(performance.now() - plainAt);

    const t0 = performance.now();
    const started = await api("/uploads", {
      title: `Long take ${round}`,
      filename: "long take.wav",
      contentType: "audio/wav",
      size: bytes.length,
    });
    if (started.status !== 201) throw new Error(`start: ${started.status} ${await started.text()}`);
    const upload = (await started.json()) as {
      uploadId: string;
      partSize: number;
      parts: Array<{ partNumber: number; url: string }>;
    };
    const t1 = performance.now();
    const queue = [...upload.parts];
    const sent: Array<{ partNumber: number; etag: string }> = [];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let part = queue.shift(); part; part = queue.shift()) {
          const from = (part.partNumber - 1) * upload.partSize;
          const put = await fetch(part.url, {
            method: "PUT",
            body: bytes.subarray(from, from + upload.partSize),
          });
          if (!put.ok) throw new Error(`part ${part.partNumber}: ${put.status}`);
          sent.push({ partNumber: part.partNumber, etag: put.headers.get("etag") ?? "" });
        }
      }),
    );
    const t2 = performance.now();
    sent.sort((a, b) => a.partNumber - b.partNumber);
    const completed = await api(`/uploads/${upload.uploadId}/complete`, { parts: sent });
    if (completed.status !== 202) {
      throw new Error(`complete: ${completed.status} ${await completed.text()}`);
    }
    const t3 = performance.now();
    figures.start?.push(t1 - t0);
    figures.parts?.push(t2 - t1);
    figures.complete?.push(t3 - t2);
    figures.total?.push(t3 - t0);
    console.log(
      `round ${round}: ${upload.parts.length} parts of ${(upload.partSize / 2 ** 20).toFixed(0)} MiB · start ${(t1 - t0).toFixed(0)} ms · parts ${((t2 - t1) / 1000).toFixed(1)} s (${(bytes.length / 1e6 / ((t2 - t1) / 1000)).toFixed(0)} MB/s) · complete ${((t3 - t2) / 1000).toFixed(1)} s · whole ${((t3 - t0) / 1000).toFixed(1)} s (${(bytes.length / 1e6 / ((t3 - t0) / 1000)).toFixed(0)} MB/s) · one plain PUT ${((figures.plain?.at(-1) ?? 0) / 1000).toFixed(1)} s`,
    );
  }
  const mbps = (ms: number) => (bytes.length / 1e6 / (ms / 1000)).toFixed(0);
  const median = (name: string) => summarize(figures[name] ?? []).p50;
  console.log(
    `median: direct upload ${(median("total") / 1000).toFixed(1)} s = ${mbps(median("total"))} MB/s end to end (parts ${mbps(median("parts"))} MB/s, complete ${(median("complete") / 1000).toFixed(1)} s); one plain PUT to the store ${mbps(median("plain"))} MB/s`,
  );
  console.log(`stored source: ${(await stat(file)).size} bytes · ${loadLine("at the end")}`);
} finally {
  await life.stopAll();
}
