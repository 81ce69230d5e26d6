import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server; each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { databaseUrl } = inject("infra");
  // Hex only, so the name needs no quoting beyond the identifier quotes below.
  const name = `test_${randomBytes(8).toString("hex")}`;
  await asAdmin(databaseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a pool a failed test forgot to close must not keep the database alive.
    drop: () => asAdmin(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function asAdmin(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
