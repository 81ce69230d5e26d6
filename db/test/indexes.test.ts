import { asc, desc, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/migrate";
import * as schema from "../src/schema";
import { createTestDatabase, type TestDatabase } from "./support";

const { albums, artists, listeningHistory, playlists, tracks } = schema;

let database: TestDatabase;
let pool: pg.Pool;
let db: NodePgDatabase<typeof schema>;
let artistId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url);
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
  db = drizzle({ client: pool, schema });
  const [artist] = await db
    .insert(artists)
    .values({ username: "Beyoncé", email: "b@example.com" })
    .returning();
  if (!artist) throw new Error("insert returned nothing");
  artistId = artist.id;
  await db.insert(tracks).values([
    { artistId, title: "Café del Mar" },
    { artistId, title: "Running Up That Hill" },
  ]);
  await db.insert(albums).values({ artistId, title: "Señorita Sessions" });
  // Rows that match no test's query, so that on tables of some size an index that can serve a
  // query beats reading every entry of another one.
  await db.execute(sql`
    WITH u AS (INSERT INTO users (username, email) VALUES ('filler', 'filler@example.com') RETURNING id)
    INSERT INTO playlists (user_id, title) SELECT u.id, 'filler ' || i FROM u, generate_series(1, 2000) i`);
  await db.execute(sql`
    INSERT INTO artists (username, email) SELECT 'filler' || i, 'f' || i || '@example.com' FROM generate_series(1, 2000) i`);
  for (const table of ["tracks", "albums"]) {
    await db.execute(sql`
      INSERT INTO ${sql.identifier(table)} (artist_id, title)
      SELECT ${artistId}, 'filler ' || i FROM generate_series(1, 2000) i`);
  }
  // VACUUM also moves the GIN indexes' pending entries into the index proper.
  await db.execute(sql`VACUUM ANALYZE`);
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

interface Searchable {
  searchText: AnyPgColumn;
  searchVector: AnyPgColumn;
}

const substring = (table: Searchable, q: string): SQL =>
  sql`${table.searchText} LIKE '%' || lower(public.immutable_unaccent(${q})) || '%'`;

const prefix = (table: Searchable, q: string): SQL =>
  sql`${table.searchText} LIKE lower(public.immutable_unaccent(${q})) || '%'`;

const fullText = (table: Searchable, q: string): SQL =>
  sql`${table.searchVector} @@ websearch_to_tsquery('english', public.immutable_unaccent(${q}))`;

/**
 * The plan for `query` with the planner steered off sequential scans (and, for `ordered`, off
 * bitmap scans and sorts), so a fitting index shows up even on these tiny tables and a missing
 * one shows up as a Seq Scan or a Sort. GIN indexes are only ever read by bitmap scans.
 */
async function plan(query: SQLWrapper, ordered = false): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    if (ordered) {
      await tx.execute(sql`SET LOCAL enable_bitmapscan = off`);
      await tx.execute(sql`SET LOCAL enable_sort = off`);
    }
    const { rows } = await tx.execute<{ "QUERY PLAN": string }>(sql`EXPLAIN ${query}`);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

describe("search", () => {
  it("matches substrings regardless of case and accents", async () => {
    const titles = async (q: string) =>
      (await db.select().from(tracks).where(substring(tracks, q))).map((t) => t.title);
    expect(await titles("CAFE")).toEqual(["Café del Mar"]);
    expect(await titles("fé d")).toEqual(["Café del Mar"]);
    expect(await titles("hill")).toEqual(["Running Up That Hill"]);
  });

  it("matches English full text regardless of accents", async () => {
    const found = await db.select().from(albums).where(fullText(albums, "senorita session"));
    expect(found.map((a) => a.title)).toEqual(["Señorita Sessions"]);
    const runs = await db.select().from(tracks).where(fullText(tracks, "run"));
    expect(runs.map((t) => t.title)).toEqual(["Running Up That Hill"]);
  });

  it("stores the search forms in generated columns, kept up to date on every write", async () => {
    const forms = { text: tracks.searchText, vector: tracks.searchVector, id: tracks.id };
    const [inserted] = await db
      .insert(tracks)
      .values({ artistId, title: "Éclair SÖMMER" })
      .returning(forms);
    expect(inserted).toMatchObject({ text: "eclair sommer", vector: "'eclair':1 'sommer':2" });
    const [updated] = await db
      .update(tracks)
      .set({ title: "Nuits d'Été" })
      .where(eq(tracks.id, inserted?.id ?? ""))
      .returning(forms);
    expect(updated).toMatchObject({ text: "nuits d'ete", vector: "'d':2 'ete':3 'nuit':1" });
  });

  it.each([
    ["tracks", tracks],
    ["albums", albums],
    ["playlists", playlists],
    ["artists", artists],
  ] as const)("queries on the generated columns use the %s indexes", async (name, table) => {
    const source = sql`${sql.identifier(name)}`;
    const byText = await plan(sql`SELECT 1 FROM ${source} WHERE ${substring(table, "xyz")}`);
    expect(byText).toContain(`${name}_search_text_trgm_idx`);
    const byWords = await plan(sql`SELECT 1 FROM ${source} WHERE ${fullText(table, "x")}`);
    expect(byWords).toContain(`${name}_search_vector_idx`);
    const byPrefix = await plan(sql`SELECT 1 FROM ${source} WHERE ${prefix(table, "x")}`);
    expect(byPrefix).toContain(`${name}_search_text_prefix_idx`);
  });
});

describe("ordered listings read their index in order, without a Sort", () => {
  const userId = "00000000-0000-4000-8000-000000000000";

  it("listening history, newest first", async () => {
    const text = await plan(
      db
        .select()
        .from(listeningHistory)
        .where(eq(listeningHistory.userId, userId))
        .orderBy(desc(listeningHistory.listenedAt))
        .limit(20),
      true,
    );
    expect(text).toContain("listening_history_user_id_listened_at_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });

  it("newest listen of each track", async () => {
    const text = await plan(
      db
        .selectDistinctOn([listeningHistory.trackId])
        .from(listeningHistory)
        .where(eq(listeningHistory.userId, userId))
        .orderBy(asc(listeningHistory.trackId), desc(listeningHistory.listenedAt)),
      true,
    );
    expect(text).toContain("listening_history_user_id_track_id_listened_at_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });

  it("own playlists, recently updated first", async () => {
    const text = await plan(
      db
        .select()
        .from(playlists)
        .where(eq(playlists.userId, userId))
        .orderBy(desc(playlists.updatedAt))
        .limit(20),
      true,
    );
    expect(text).toContain("playlists_user_id_updated_at_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });

  it("public playlists, recently updated first", async () => {
    const text = await plan(
      db
        .select()
        .from(playlists)
        .where(eq(playlists.isPublic, true))
        .orderBy(desc(playlists.updatedAt))
        .limit(20),
      true,
    );
    expect(text).toContain("playlists_public_updated_at_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });

  it("unfinished tracks, oldest start first (the reconciler's scan)", async () => {
    const text = await plan(
      db
        .select()
        .from(tracks)
        .where(eq(tracks.processingStatus, "PROCESSING"))
        .orderBy(asc(tracks.processingStartedAt))
        .limit(50),
      true,
    );
    expect(text).toContain("tracks_processing_started_at_idx");
    expect(text).not.toMatch(/\bSort\b/);
  });
});
