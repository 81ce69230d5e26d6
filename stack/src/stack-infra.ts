// The infrastructure of one test file's stack (client, e2e): its own Redis, S3 store, stand-ins,
// pooler and Neon bridge, and a database of its own, copied from the run's migrated template on
// the run's Postgres when the global setup made one.
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

/**
 * A new database on the template's server, copied from it by Postgres (`CREATE DATABASE …
 * TEMPLATE`): migrated at once, for a fraction of a CPU second, where a server of its own costs
 * initdb, a start and the migrations. `drop` removes it, closing what is still connected.
 */
export async function createDatabaseFrom(
  template: DatabaseTemplate,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replace(/-/g, "")}`;
  await asSuperuser(template.serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template.name}`);
  const url = new URL(template.serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asSuperuser(template.serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** One statement on its own connection (CREATE and DROP DATABASE cannot run in a pool's). */
export async function asSuperuser(serverUrl: string, statement: string): Promise<void> {
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
 * template on the run's Postgres (dropped at stop); without one (a project run without the global
 * setup), a Postgres of its own, migrated.
 */
export async function startStackInfra(template: DatabaseTemplate | undefined): Promise<Infra> {
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
  const database = await createDatabaseFrom(template, "stack");
  try {
    const infra = await startInfra({ databaseUrl: database.url });
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
