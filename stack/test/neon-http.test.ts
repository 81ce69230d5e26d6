import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:net";
import { createDatabase } from "@edge-music/db/test-databases";
import { NeonDbError, neon, neonConfig } from "@neondatabase/serverless";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-http";
import { pgTable, serial, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stackWorkerVars } from "../src/dev-worker.ts";
import { freePort } from "../src/ports.ts";

// The real driver against the bridge's `/sql`, as the Worker will use it. Each suite works in a
// database of its own, reached through the pooler as the Worker reaches Neon's pooled endpoint.
const infra = inject("infra");
const items = pgTable("items", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique("items_name_key"),
});
let url: string;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  neonConfig.fetchEndpoint = infra.neonHttpEndpoint;
  const database = await createDatabase(infra.databaseUrl, "bridge_http");
  const pooled = new URL(infra.pooledDatabaseUrl);
  pooled.pathname = `/${database.name}`;
  url = pooled.toString();
  dropDatabase = database.drop;
  await neon(url).query(
    "CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL CONSTRAINT items_name_key UNIQUE)",
  );
});

afterAll(async () => {
  await dropDatabase?.();
});

const sampleDate = new Date("2024-03-01T12:34:56.789Z");
const uuid = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
/** What the driver makes of each type (its parsers by dataTypeID), from the bridge's text. */
const expected = {
  i4: 42,
  i8: "9007199254740993",
  num: "12.50",
  yes: true,
  txt: `it's "quoted" \\ é`,
  js: { a: [1, "x"] },
  jsb: { b: null, c: [true] },
  id: uuid,
  at: sampleDate,
  // pg's date parser makes local midnight.
  day: new Date(2024, 2, 1),
  tags: ["a", "b,c", '"q"', null],
  nums: [1, 2, null],
  raw: Buffer.from("deadbeef", "hex"),
  nothing: null,
};

describe("the bridge's SQL-over-HTTP endpoint, through neon()", () => {
  it("answers every type as the driver parses it from Postgres text", async () => {
    const rows = await neon(url).query(
      `SELECT 42::int4 AS i4, 9007199254740993::int8 AS i8, 12.50::numeric AS num, true AS yes,
        $$it's "quoted" \\ é$$::text AS txt, '{"a":[1,"x"]}'::json AS js,
        '{"b":null,"c":[true]}'::jsonb AS jsb, '${uuid}'::uuid AS id,
        '2024-03-01T12:34:56.789Z'::timestamptz AS at, '2024-03-01'::date AS day,
        ARRAY['a','b,c','"q"',NULL]::text[] AS tags, ARRAY[1,2,NULL]::int[] AS nums,
        '\\xdeadbeef'::bytea AS raw, NULL::text AS nothing`,
    );
    expect(rows).toEqual([expected]);
  });

  it("takes parameters of every type", async () => {
    const rows = await neon(url).query(
      `SELECT $1::int4 AS i4, $2::int8 AS i8, $3::numeric AS num, $4::bool AS yes, $5::text AS txt,
        $6::json AS js, $7::jsonb AS jsb, $8::uuid AS id, $9::timestamptz AS at, $10::date AS day,
        $11::text[] AS tags, $12::int[] AS nums, $13::bytea AS raw, $14::text AS nothing`,
      [
        42,
        9007199254740993n,
        "12.50",
        true,
        expected.txt,
        expected.js,
        JSON.stringify(expected.jsb),
        uuid,
        sampleDate,
        "2024-03-01",
        expected.tags,
        expected.nums,
        expected.raw,
        null,
      ],
    );
    expect(rows).toEqual([expected]);
  });

  it("gives full results: fields, command and row count", async () => {
    const sql = neon(url, { fullResults: true });
    const name = `full-${randomUUID()}`;
    const inserted = await sql`INSERT INTO items (name) VALUES (${name}) RETURNING id, name`;
    expect(inserted).toMatchObject({ command: "INSERT", rowCount: 1, rows: [{ name }] });
    expect(inserted.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
      ["id", 23],
      ["name", 25],
    ]);
    const updated = await sql`UPDATE items SET name = name WHERE name = ${name}`;
    expect(updated).toMatchObject({ command: "UPDATE", rowCount: 1, rows: [] });
  });

  it("answers a unique violation as a NeonDbError with its code and constraint", async () => {
    const sql = neon(url);
    const name = `dup-${randomUUID()}`;
    await sql`INSERT INTO items (name) VALUES (${name})`;
    const error = await sql`INSERT INTO items (name) VALUES (${name})`.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({
      code: "23505",
      constraint: "items_name_key",
      table: "items",
      severity: "ERROR",
      detail: `Key (name)=(${name}) already exists.`,
    });
  });

  it("answers a syntax error with its position", async () => {
    const error = await neon(url)
      .query("SELECT 1 FORM items")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ code: "42601", position: "15" });
  });

  it("refuses a target that is not its Postgres, without dialling it", async () => {
    let dialled = 0;
    const bystander: Server = createServer((socket) => {
      dialled++;
      socket.destroy();
    });
    const port = await freePort();
    await new Promise<void>((done) => bystander.listen(port, "127.0.0.1", done));
    try {
      const other = neon(`postgresql://postgres:secret@127.0.0.1:${port}/postgres`);
      await expect(other`SELECT 1`).rejects.toThrow(`address not allowed: 127.0.0.1:${port}`);
      expect(dialled).toBe(0);
    } finally {
      bystander.close();
    }
  });

  it("is given to the stack's Worker as NEON_HTTP_ENDPOINT", () => {
    const vars = stackWorkerVars(infra, "http://localhost:8787");
    expect(vars.NEON_HTTP_ENDPOINT).toBe(infra.neonHttpEndpoint);
    expect(new URL(infra.neonHttpEndpoint).port).toBe(new URL(infra.neonWsProxy).port);
  });
});

describe("batches (sql.transaction, drizzle's batch): one transaction", () => {
  it("writes every statement of a batch, and answers each", async () => {
    const db = drizzle({ client: neon(url) });
    const name = `batch-${randomUUID()}`;
    const [inserted, found] = await db.batch([
      db.insert(items).values({ name }).returning({ name: items.name }),
      db.select({ name: items.name }).from(items).where(eq(items.name, name)),
    ]);
    expect(inserted).toEqual([{ name }]);
    expect(found).toEqual([{ name }]);
  });

  it("writes nothing when a later statement fails", async () => {
    const db = drizzle({ client: neon(url) });
    const taken = `taken-${randomUUID()}`;
    const first = `first-${randomUUID()}`;
    await db.insert(items).values({ name: taken });
    const error = await db
      .batch([db.insert(items).values({ name: first }), db.insert(items).values({ name: taken })])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect(await db.select().from(items).where(eq(items.name, first))).toEqual([]);
  });

  it("runs with the isolation level, read-only and deferrable modes asked", async () => {
    const sql = neon(url);
    const modes = await sql.transaction(
      [
        sql`SHOW transaction_isolation`,
        sql`SHOW transaction_read_only`,
        sql`SHOW transaction_deferrable`,
      ],
      { isolationLevel: "Serializable", readOnly: true, deferrable: true },
    );
    expect(modes).toEqual([
      [{ transaction_isolation: "serializable" }],
      [{ transaction_read_only: "on" }],
      [{ transaction_deferrable: "on" }],
    ]);
    const plain = await sql.transaction([sql`SHOW transaction_read_only`]);
    expect(plain).toEqual([[{ transaction_read_only: "off" }]]);
  });

  it("refuses a write in a read-only batch", async () => {
    const sql = neon(url);
    const name = `readonly-${randomUUID()}`;
    const error = await sql
      .transaction([sql`INSERT INTO items (name) VALUES (${name})`], { readOnly: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ code: "25006" });
    expect(await sql`SELECT 1 FROM items WHERE name = ${name}`).toEqual([]);
  });
});
