import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/migrate";
import { createTestDatabase, type TestDatabase } from "./support";

const journal = JSON.parse(
  readFileSync(new URL("../migrations/meta/_journal.json", import.meta.url), "utf8"),
) as { entries: { tag: string }[] };

const TABLES = [
  "album_likes",
  "albums",
  "artist_app_passwords",
  "artist_email_tokens",
  "artist_follows_daily",
  "artist_likes",
  "artist_likes_daily",
  "artist_oauth_accounts",
  "artist_password_reset_tokens",
  "artist_recovery_codes",
  "artist_sessions",
  "artist_two_factor",
  "artists",
  "follows",
  "listening_history",
  "now_playing",
  "play_artist_countries_daily",
  "play_artist_daily",
  "play_artist_listeners_daily",
  "play_countries_daily",
  "play_counts_daily",
  "play_counts_hourly",
  "play_inbox",
  "play_listeners_daily",
  "play_queues",
  "play_recent",
  "playlist_likes",
  "playlist_tracks",
  "playlists",
  "rate_limits",
  "search_words",
  "track_files",
  "track_likes",
  "track_ratings",
  "track_uploads",
  "tracks",
  "trending_tracks",
  "user_app_passwords",
  "user_email_tokens",
  "user_oauth_accounts",
  "user_password_reset_tokens",
  "user_recovery_codes",
  "user_sessions",
  "user_two_factor",
  "users",
];

const SEARCHABLE = [
  ["tracks", "title"],
  ["albums", "title"],
  ["playlists", "title"],
  // Both names: the display name first, then the username.
  ["artists", "(COALESCE((display_name || ' '::text), ''::text) || username)"],
] as const;

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

const rows = async <T>(text: string, values: unknown[] = []) =>
  (await client.query(text, values)).rows as T[];

describe("migrations", () => {
  it("run the custom extensions migration first", () => {
    expect(journal.entries[0]?.tag).toBe("0000_extensions");
  });

  it("record every migration once, and a second run changes nothing", async () => {
    const applied = async () =>
      rows<{ hash: string }>("SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id");
    const before = await applied();
    expect(before).toHaveLength(journal.entries.length);
    await client.query("INSERT INTO users (username, email) VALUES ('keep', 'keep@example.com')");

    await migrate(database.url);

    expect(await applied()).toEqual(before);
    expect(await rows("SELECT 1 FROM users WHERE username = 'keep'")).toHaveLength(1);
  });

  it("serialise concurrent runs on a fresh database", async () => {
    const fresh = await createTestDatabase();
    try {
      await Promise.all([migrate(fresh.url), migrate(fresh.url), migrate(fresh.url)]);
      const other = new pg.Client({ connectionString: fresh.url });
      await other.connect();
      const { rows: applied } = await other.query("SELECT hash FROM drizzle.__drizzle_migrations");
      await other.end();
      expect(applied).toHaveLength(journal.entries.length);
    } finally {
      await fresh.drop();
    }
  });

  it("create the expected tables", async () => {
    const tables = await rows<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(TABLES);
  });

  it("create the enums with their values in order", async () => {
    const enums = await rows<{ name: string; labels: string[] }>(
      `SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY 1`,
    );
    expect(enums).toEqual([
      { name: "processing_status", labels: ["PROCESSING", "READY", "FAILED"] },
      {
        name: "track_file_kind",
        labels: ["opus", "hls_master", "hls_playlist", "hls_init", "hls_segment", "aac"],
      },
      { name: "visibility", labels: ["public", "unlisted", "private"] },
    ]);
  });

  it("install the search extensions and the immutable unaccent wrapper", async () => {
    const extensions = await rows<{ extname: string }>(
      `SELECT extname FROM pg_extension
       WHERE extname IN ('fuzzystrmatch', 'pg_trgm', 'unaccent') ORDER BY 1`,
    );
    expect(extensions.map((e) => e.extname)).toEqual(["fuzzystrmatch", "pg_trgm", "unaccent"]);
    const [fn] = await rows<{ volatile: string; result: string }>(
      `SELECT p.provolatile AS volatile, public.immutable_unaccent('Beyoncé Ångström') AS result
       FROM pg_proc p WHERE p.oid = 'public.immutable_unaccent(text)'::regprocedure`,
    );
    expect(fn).toEqual({ volatile: "i", result: "Beyonce Angstrom" });
  });

  it.each(SEARCHABLE)(
    "store the search forms of %s (%s), indexed for full text, substring and prefix",
    async (table, col) => {
      const columns = await rows<{ column_name: string; generation_expression: string }>(
        `SELECT column_name, generation_expression FROM information_schema.columns
         WHERE table_name = $1 AND is_generated = 'ALWAYS' AND column_name LIKE 'search\\_%'
           AND column_name NOT IN ('search_handle', 'search_display') ORDER BY column_name`,
        [table],
      );
      expect(columns).toEqual([
        {
          column_name: "search_text",
          generation_expression: `lower(immutable_unaccent(${col}))`,
        },
        {
          column_name: "search_vector",
          generation_expression: `to_tsvector('english'::regconfig, immutable_unaccent(${col}))`,
        },
      ]);
      const indexes = await rows<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname LIKE $2",
        [table, `${table}_search_%`],
      );
      const byName = new Map(indexes.map((i) => [i.indexname, i.indexdef]));
      expect(byName.get(`${table}_search_vector_idx`)).toContain("USING gin (search_vector)");
      expect(byName.get(`${table}_search_text_trgm_idx`)).toContain(
        "USING gin (search_text gin_trgm_ops)",
      );
      expect(byName.get(`${table}_search_text_prefix_idx`)).toContain(
        "USING btree (search_text text_pattern_ops)",
      );
    },
  );

  it("store the artists' names run together, trigram-indexed, and measure typos near a name's start", async () => {
    const [column] = await rows<{ generation_expression: string }>(
      `SELECT generation_expression FROM information_schema.columns
       WHERE table_name = 'artists' AND column_name = 'search_display'`,
    );
    expect(column?.generation_expression).toContain("display_name");
    await client.query(
      "INSERT INTO artists (username, email, display_name) VALUES ('lunaharbor911', 'luna@example.com', 'Luna Harbør')",
    );
    const [artist] = await rows<{
      search_handle: string;
      search_display: string;
      search_text: string;
    }>(
      "SELECT search_handle, search_display, search_text FROM artists WHERE username = 'lunaharbor911'",
    );
    expect(artist).toEqual({
      search_handle: "lunaharbor911",
      search_display: "lunaharbor",
      search_text: "luna harbor lunaharbor911",
    });
    const edits = async (query: string, name: string, allowed: number) =>
      (
        await rows<{ n: number }>("SELECT public.prefix_edits($1, $2, $3) AS n", [
          query,
          name,
          allowed,
        ])
      )[0]?.n;
    expect(await edits("lunharbor", "lunaharbor911", 2)).toBe(1);
    expect(await edits("lunaharbour", "lunaharbor911", 2)).toBe(1);
    expect(await edits("lunaharbor", "lunaharbor911", 2)).toBe(0);
    expect(await edits("harbor", "lunaharbor911", 2)).toBe(3);
    expect(await edits("lunaharbor", "", 2)).toBe(3);
  });

  it("price random page reads as on SSD, for every new session of the database", async () => {
    const fresh = new pg.Client({ connectionString: database.url });
    await fresh.connect();
    try {
      const { rows: settings } = await fresh.query(
        "SELECT current_setting('random_page_cost') AS cost",
      );
      expect(settings).toEqual([{ cost: "1.1" }]);
    } finally {
      await fresh.end();
    }
  });
});
