import { asc, desc, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/migrate";
import * as schema from "../src/schema";
import { createTestDatabase, type TestDatabase } from "./support";

const { albums, artists, listeningHistory, playlists, searchText, searchVector, tracks } = schema;

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
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const substring = (column: AnyPgColumn, q: string): SQL =>
  sql`${searchText(column)} LIKE '%' || lower(public.immutable_unaccent(${q})) || '%'`;

const fullText = (column: AnyPgColumn, q: string): SQL =>
  sql`${searchVector(column)} @@ websearch_to_tsquery('english', public.immutable_unaccent(${q}))`;

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
      (await db.select().from(tracks).where(substring(tracks.title, q))).map((t) => t.title);
    expect(await titles("CAFE")).toEqual(["Café del Mar"]);
    expect(await titles("fé d")).toEqual(["Café del Mar"]);
    expect(await titles("hill")).toEqual(["Running Up That Hill"]);
  });

  it("matches English full text regardless of accents", async () => {
    const found = await db.select().from(albums).where(fullText(albums.title, "senorita session"));
    expect(found.map((a) => a.title)).toEqual(["Señorita Sessions"]);
    const runs = await db.select().from(tracks).where(fullText(tracks.title, "run"));
    expect(runs.map((t) => t.title)).toEqual(["Running Up That Hill"]);
  });

  it.each([
    ["tracks", tracks.title],
    ["albums", albums.title],
    ["playlists", playlists.title],
    ["artists", artists.username],
  ] as const)("queries built with the helpers use the %s indexes", async (table, column) => {
    const source = sql`${sql.identifier(table)}`;
    const byText = await plan(sql`SELECT 1 FROM ${source} WHERE ${substring(column, "x")}`);
    expect(byText).toContain(`${table}_${column.name}_trgm_idx`);
    const byWords = await plan(sql`SELECT 1 FROM ${source} WHERE ${fullText(column, "x")}`);
    expect(byWords).toContain(`${table}_${column.name}_fts_idx`);
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
