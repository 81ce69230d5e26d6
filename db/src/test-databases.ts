// Databases made for tests (a run's, a stack's, a test file's own) on a running Postgres, and the
// way to drop them. Test support only: nothing in the Worker or the transcoder imports this.
import pg from "pg";

/** A database made for a test run or a test file, and the way to drop it. */
export interface TestDatabase {
  name: string;
  url: string;
  /** Drops it, closing what is still connected (a pool a failed test forgot to close). */
  drop(): Promise<void>;
}

/**
 * A new, uniquely named database on the server of `serverUrl` (a superuser URL): empty, or a copy
 * of the migrated `template` made by Postgres (`CREATE DATABASE … TEMPLATE`), migrated at once for a
 * fraction of a CPU second, where a server of its own costs initdb, a start and the migrations.
 */
export async function createDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<TestDatabase> {
  const name = `${prefix}_${crypto.randomUUID().replace(/-/g, "")}`;
  await asSuperuser(serverUrl, async (client) => {
    await client.query(
      `CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`,
    );
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => dropDatabase(serverUrl, name) };
}

/** How long a drop waits for the database's sessions to leave before it ends them. */
const SESSIONS_LEAVE_MS = 2_000;

/**
 * Drops the database once its sessions have left, or, after SESSIONS_LEAVE_MS, ends them (FORCE).
 * The wait matters: `pool.end()` resolves once it has asked its connections to close, not once
 * they have, and a session that FORCE ends while it closes makes its pool, no longer listened
 * to, throw the server's "terminating connection" as an uncaught exception in the test process.
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await asSuperuser(serverUrl, async (client) => {
    const deadline = Date.now() + SESSIONS_LEAVE_MS;
    for (;;) {
      const { rows } = await client.query<{ sessions: number }>(
        "SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE datname = $1",
        [name],
      );
      if (rows[0]?.sessions === 0 || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Work on a connection of its own (CREATE and DROP DATABASE cannot run in a pool's). */
async function asSuperuser(
  serverUrl: string,
  work: (client: pg.Client) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
