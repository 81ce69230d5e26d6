// The infrastructure of one test file's stack (client, e2e): its own Redis, stand-ins, pooler and
// Neon bridge, a bucket of its own on the run's S3 store, and a database of its own, copied from
// the run's migrated template on the run's Postgres (@edge-music/db/test-databases), when the
// global setup made one.
import { migrate } from "@edge-music/db/migrate";
import { createDatabase } from "@edge-music/db/test-databases";
import { type Infra, startInfra } from "./infra.ts";

/** What a test file's stack takes from the run instead of starting its own. */
export interface StackBase {
  /** Superuser URL of the run's Postgres (its `postgres` database). */
  serverUrl: string;
  /** The migrated database there that nothing stays connected to (Postgres copies it only then). */
  template: string;
  /** The run's S3 store, where the stack makes a bucket of its own. */
  s3Endpoint: string;
}

/**
 * startInfra for a test file's stack. Given the run's base, its database is a copy of the
 * template on the run's Postgres (dropped at stop) and its bucket is made on the run's S3 store;
 * without one (a project run without the global setup), a Postgres and a store of its own,
 * migrated.
 */
export async function startStackInfra(base: StackBase | undefined): Promise<Infra> {
  if (!base) {
    const infra = await startInfra();
    try {
      await migrate(infra.databaseUrl);
    } catch (error) {
      await infra.stop();
      throw error;
    }
    return infra;
  }
  const database = await createDatabase(base.serverUrl, "stack", base.template);
  try {
    const infra = await startInfra({
      databaseUrl: database.url,
      s3Endpoint: base.s3Endpoint,
      bucket: database.name.replaceAll("_", "-"),
    });
    return {
      ...infra,
      async stop() {
        await infra.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
