import { readFileSync } from "node:fs";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/migrate";
import * as schema from "../src/schema";
import { createTestDatabase, type TestDatabase } from "./support";

// The parts of a drizzle-kit Postgres snapshot (migrations/meta/*_snapshot.json) read below.
type SnapshotTable = {
  name: string;
  columns: Record<string, { name: string; type: string; notNull: boolean }>;
  indexes: Record<string, unknown>;
  foreignKeys: Record<string, { name: string; onDelete?: string }>;
};
type PgSnapshot = { id: string; tables: Record<string, SnapshotTable> };

const meta = (file: string) =>
  JSON.parse(readFileSync(new URL(`../migrations/meta/${file}`, import.meta.url), "utf8"));

const journal = meta("_journal.json") as { entries: { idx: number }[] };

function latestSnapshot(): PgSnapshot {
  const last = journal.entries.at(-1);
  if (!last) throw new Error("migrations/meta/_journal.json lists no migration");
  return meta(`${String(last.idx).padStart(4, "0")}_snapshot.json`);
}

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

const sorted = (lines: string[]) => [...lines].sort();

describe("schema drift", () => {
  it("the committed migrations match src/schema (run `pnpm db:generate` if not)", async () => {
    const committed = latestSnapshot();
    const current = generateDrizzleJson(schema, committed.id);
    expect(await generateMigration(committed, current)).toEqual([]);
  });

  it("the comparison notices a changed column", async () => {
    const committed = latestSnapshot();
    const altered = structuredClone(committed);
    const title = altered.tables["public.albums"]?.columns.title;
    if (!title) throw new Error("snapshot has no albums.title");
    title.notNull = false;
    const current = generateDrizzleJson(schema, altered.id);
    expect(await generateMigration(altered, current)).toEqual([
      'ALTER TABLE "albums" ALTER COLUMN "title" SET NOT NULL;',
    ]);
  });

  // The snapshot is only what drizzle-kit believes the SQL does; a hand-edited migration would
  // slip past the check above. Compare it with what the SQL really built.
  it("the migrated database matches the latest snapshot", async () => {
    const tables = Object.values(latestSnapshot().tables);

    const { rows: columns } = await client.query<{ line: string }>(
      `SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
              || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END AS line
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
         AND a.attnum > 0 AND NOT a.attisdropped`,
    );
    expect(sorted(columns.map((c) => c.line))).toEqual(
      sorted(
        tables.flatMap((t) =>
          Object.values(t.columns).map(
            (c) => `${t.name}.${c.name} ${c.type}${c.notNull ? " not null" : ""}`,
          ),
        ),
      ),
    );

    const { rows: indexes } = await client.query<{ name: string }>(
      `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       WHERE i.relnamespace = 'public'::regnamespace AND NOT x.indisprimary`,
    );
    expect(sorted(indexes.map((i) => i.name))).toEqual(
      sorted(tables.flatMap((t) => Object.keys(t.indexes))),
    );

    const { rows: foreignKeys } = await client.query<{ line: string }>(
      `SELECT conname || ' ' || CASE confdeltype WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null'
                                  WHEN 'r' THEN 'restrict' WHEN 'd' THEN 'set default'
                                  ELSE 'no action' END AS line
       FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
    );
    expect(sorted(foreignKeys.map((f) => f.line))).toEqual(
      sorted(
        tables.flatMap((t) =>
          Object.values(t.foreignKeys).map((f) => `${f.name} ${f.onDelete ?? "no action"}`),
        ),
      ),
    );
  });
});
