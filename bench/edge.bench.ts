// Latency of hot routes as a listener far from the database feels it: the real Worker (wrangler
// dev) on the local stack, with every exchange between the Worker and Postgres delayed by
// DEV_DB_RTT_MS (the Neon bridge's latency knob; default here 50 ms, the Europe ↔ us-east round
// trip). Per route: p50/p95 at concurrency 1 and 8 over BENCH_N requests (default 40) each, and
// how many answers came from the edge cache (anonymous public reads after the first); the CPU
// time of workerd (its processes, from /proc) and of the Worker isolate alone (V8's profiler).
// Run it at 0 and 50 (`DEV_DB_RTT_MS=0 ./run bench edge`) to see what the distance costs.
import { migrate } from "@edge-music/db/migrate";
import { freePort, startInfra, startStackWorker, workerProcessId } from "@edge-music/stack";
import { connectIsolateCpu } from "./support/isolate-cpu.ts";
import { childProcesses, cpuNs } from "./support/proc-cpu.ts";
import { lifecycle, loadLine, registerUser, signIn } from "./support/seed-stack.ts";
import { summarize } from "./support/stats.ts";

const RTT = Number(process.env.DEV_DB_RTT_MS ?? 50);
const N = Number(process.env.BENCH_N ?? 40);

const life = await lifecycle("edge");
try {
  const infra = await startInfra({ dbRttMs: RTT });
  life.defer(infra.stop);
  await migrate(infra.databaseUrl);
  const inspectorPort = await freePort();
  const worker = await startStackWorker(infra, { tmp: life.tmp, inspectorPort });
  life.defer(worker.stop);
  console.log(`db rtt ${RTT} ms · ${loadLine("at start")}`);

  const api = `${worker.url}/api/v1`;
  const headers = (cookie: string) => ({
    cookie,
    "content-type": "application/json",
    origin: worker.url,
  });
  const account = await registerUser(worker, "edge");
  const cookie = await signIn(worker, account);
  const created = await fetch(`${api}/playlists`, {
    method: "POST",
    headers: headers(cookie),
    body: JSON.stringify({ title: "Edge", isPublic: true }),
  });
  const playlist = (await created.json()) as { id: string };
  // workerd's CPU time per request (every thread of its processes, from /proc): what Cloudflare
  // bills, which the Worker cannot measure itself; read around each request at concurrency 1.
  // Listed once the Worker has answered (wrangler starts its workerd processes as it goes).
  const workerd = await childProcesses(workerProcessId(worker), "workerd");
  console.log(`workerd processes measured: ${workerd.length}`);
  // The isolate's own share, from V8's sampling profiler, in a pass of its own after the timed
  // ones (profiling slows the code it watches).
  const isolate = await connectIsolateCpu(inspectorPort);
  life.defer(isolate.close);

  // A fresh refresh token per call: each rotation spends the one it presents.
  const refreshTokens: string[] = [];
  const loginForRefresh = async () => {
    const answer = await fetch(`${api}/users/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const refresh = answer.headers.getSetCookie().find((c) => c.startsWith("refresh_token="));
    return refresh?.split(";")[0] ?? "";
  };

  let missPage = 0;
  const routes: Array<{ label: string; run: () => Promise<Response> }> = [
    // No database, no middleware work to speak of: workerd's own cost of a request, the floor.
    { label: "GET /health/live (floor)", run: () => fetch(`${api}/health/live`) },
    {
      label: "GET /users/me (signed in)",
      run: () => fetch(`${api}/users/me`, { headers: headers(cookie) }),
    },
    {
      label: "GET /history (signed in)",
      run: () => fetch(`${api}/history`, { headers: headers(cookie) }),
    },
    {
      label: "GET /playlists/me (signed in)",
      run: () => fetch(`${api}/playlists/me`, { headers: headers(cookie) }),
    },
    {
      label: "GET /playlists/{id} (anonymous)",
      run: () => fetch(`${api}/playlists/${playlist.id}`),
    },
    {
      label: "POST /playlists/{id}/like (signed in)",
      run: () =>
        fetch(`${api}/playlists/${playlist.id}/like`, { method: "POST", headers: headers(cookie) }),
    },
    { label: "GET /search?q=edge (anonymous)", run: () => fetch(`${api}/search?q=edge`) },
    {
      // A page nobody asked for yet: an edge-cache miss every time, so one database round trip.
      label: "GET /artists?page=<new> (anonymous, miss)",
      run: () => fetch(`${api}/artists?page=${1000 + missPage++}`),
    },
    {
      label: "POST /users/auth/login (argon2 inside)",
      run: () =>
        fetch(`${api}/users/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: worker.url },
          body: JSON.stringify({ email: account.email, password: account.password }),
        }),
    },
    {
      label: "POST /users/auth/refresh",
      run: () => {
        const token = refreshTokens.pop() ?? "";
        return fetch(`${api}/users/auth/refresh`, {
          method: "POST",
          headers: { cookie: token, origin: worker.url },
        });
      },
    },
  ];

  for (const route of routes) {
    for (const concurrency of [1, 8]) {
      if (route.label.includes("refresh")) {
        // Logins are rate limited per address; each gets its own.
        refreshTokens.length = 0;
        for (let i = 0; i < N + concurrency; i++) refreshTokens.push(await loginForRefresh());
      }
      await route.run(); // warm-up
      const samples: number[] = [];
      const cpu: number[] = [];
      let errors = 0;
      let hits = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < N) {
            next++;
            const cpuBefore = concurrency === 1 ? await cpuNs(workerd) : 0;
            const start = performance.now();
            const answer = await route.run();
            await answer.arrayBuffer();
            samples.push(performance.now() - start);
            if (concurrency === 1) cpu.push(((await cpuNs(workerd)) - cpuBefore) / 1e6);
            if (answer.status >= 400) errors++;
            if (["hit", "stale"].includes(answer.headers.get("x-edge-cache") ?? "")) hits++;
          }
        }),
      );
      const s = summarize(samples);
      const c = cpu.length > 0 ? summarize(cpu) : undefined;
      const cpuText = c ? ` workerd cpu p50=${c.p50.toFixed(2)} p99=${c.p99.toFixed(2)} ms` : "";
      console.log(
        `${route.label.padEnd(42)} c=${concurrency} n=${s.n} p50=${s.p50.toFixed(1)} p95=${s.p95.toFixed(1)} ms edge hits=${hits}/${s.n}${cpuText}${errors ? ` errors=${errors}` : ""}`,
      );
    }
    if (route.label.includes("refresh")) {
      refreshTokens.length = 0;
      for (let i = 0; i < N; i++) refreshTokens.push(await loginForRefresh());
    }
    const js: number[] = [];
    const withProgram: number[] = [];
    for (let i = 0; i < N; i++) {
      const split = await isolate.measure(async () => (await route.run()).arrayBuffer());
      js.push(split.js);
      withProgram.push(split.js + split.program);
    }
    const j = summarize(js);
    const w = summarize(withProgram);
    console.log(
      `${route.label.padEnd(42)} isolate cpu (profiler, n=${j.n}): js+gc p50=${j.p50.toFixed(2)} p99=${j.p99.toFixed(2)} ms · with (program) p50=${w.p50.toFixed(2)} p99=${w.p99.toFixed(2)} ms`,
    );
  }
} finally {
  await life.stopAll();
}
