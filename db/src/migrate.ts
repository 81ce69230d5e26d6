import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate as applyMigrations } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

// Relative to this file, not the cwd: the CLI, tests and the dev stack all start elsewhere.
const migrationsFolder = fileURLToPath(new URL("../migrations", import.meta.url));

// Arbitrary but fixed: every migrator of this schema must agree on it.
const MIGRATION_LOCK_KEY = 4_710_822_935_061_207n;

/**
 * Applies pending migrations over one direct TCP connection (local Postgres or Neon's direct,
 * non-pooled endpoint: session advisory locks do not survive a transaction pooler).
 */
export async function migrate(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // drizzle reads the last applied migration before opening its transaction and takes no lock,
    // so two processes starting together (worker and transcoder in dev, parallel deploys) would
    // both apply the same migration. Serialise them; the second then finds nothing to do.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
    try {
      await applyMigrations(drizzle({ client }), { migrationsFolder });
    } finally {
      // Closing the connection releases the lock too, so a failed unlock must not hide the
      // migration's own error.
      await client
        .query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()])
        .catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}
