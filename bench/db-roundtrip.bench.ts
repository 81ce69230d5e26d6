// What a Worker request pays to talk to Postgres through @neondatabase/serverless, measured on the
// local stack (embedded Postgres 17 behind the dev Neon bridge): a query on an open pool, and a
// whole per-request pool (connect, query, close) as the Worker does it. Prints milliseconds.

import { migrate } from "@edge-music/db/migrate";
import { createDb } from "@edge-music/db/node";
import { startInfra } from "@edge-music/stack";
import { report, time } from "./support/stats.ts";

const N = Number(process.env.BENCH_N ?? 300);
const infra = await startInfra();
try {
  await migrate(infra.databaseUrl);
  const options = { wsProxy: infra.neonWsProxy };

  const open = createDb(infra.databaseUrl, options);
  report("select 1 on an open pool (bridge)", await time(N, () => open.pool.query("select 1")));
  report(
    "indexed lookup on an open pool (bridge)",
    await time(N, () =>
      open.pool.query("select id from users where email = $1", [`nobody-${Math.random()}@x.test`]),
    ),
  );
  await open.close();

  report(
    "per-request pool: connect + select 1 + close",
    await time(Math.ceil(N / 3), async () => {
      const handle = createDb(infra.databaseUrl, options);
      await handle.pool.query("select 1");
      await handle.close();
    }),
  );
} finally {
  await infra.stop();
}
