// The databases of a test run (the application's, the stacks' template, a test file's own) and
// the infrastructure of one test file's stack (client, e2e): its own Redis, stand-ins, pooler and
// Neon bridge, a bucket of its own on the run's S3 store, and a database of its own, copied from
// the run's migrated template on the run's Postgres, when the global setup made one.
import { migrate } from "@edge-music/db/migrate";
import pg from "pg";
import { type Infra, startInfra } from "./infra.ts";

/** Where a stack's database can be copied from: a running Postgres and a migrated database on it. */
export interface DatabaseTemplate {
  /** Superuser URL of the server's `postgres` database. */
  serverUrl: string;
  /** The migrated database that nothing stays connected to (Postgres copies it only then). */
  name: string;
}

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
  await asSuperuser(
    serverUrl,
    `CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => asSuperuser(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** One statement on its own connection (CREATE and DROP DATABASE cannot run in a pool's). */
async function asSuperuser(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * startInfra for a test file's stack. Given the run's template, its database is a copy of the
 * template on the run's Postgres (dropped at stop) and its bucket is made on the run's S3 store
 * (`s3Endpoint`); without one (a project run without the global setup), a Postgres and a store of
 * its own, migrated.
 */
export async function startStackInfra(
  template: DatabaseTemplate | undefined,
  s3Endpoint?: string,
): Promise<Infra> {
  if (!template) {
    const infra = await startInfra();
    try {
      await migrate(infra.databaseUrl);
    } catch (error) {
      await infra.stop();
      throw error;
    }
    return infra;
  }
  const database = await createDatabase(template.serverUrl, "stack", template.name);
  try {
    const infra = await startInfra({
      databaseUrl: database.url,
      ...(s3Endpoint ? { s3Endpoint, bucket: database.name.replaceAll("_", "-") } : {}),
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
