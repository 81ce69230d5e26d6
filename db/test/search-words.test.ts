import { eq, inArray } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/migrate";
import * as schema from "../src/schema";
import { createTestDatabase, type TestDatabase } from "./support";

const { albums, artists, playlists, searchWords, tracks, users } = schema;

let database: TestDatabase;
let pool: pg.Pool;
let db: NodePgDatabase<typeof schema>;

beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.url);
  pool = new pg.Pool({ connectionString: database.url });
  db = drizzle({ client: pool, schema });
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

/** The rows of search_words among `words`, as `word → query`. */
async function stored(words: string[]): Promise<Record<string, string | null>> {
  const rows = await db.select().from(searchWords).where(inArray(searchWords.word, words));
  return Object.fromEntries(rows.map((row) => [row.word, row.query]));
}

describe("search_words", () => {
  it("collects the words of every searchable table's new rows, as search_text spells them", async () => {
    const [artist] = await db
      .insert(artists)
      .values({ username: "Wordsmith-Björk", email: "w@example.com" })
      .returning();
    if (!artist) throw new Error("no artist");
    const [user] = await db
      .insert(users)
      .values({ username: "listener", email: "l@example.com" })
      .returning();
    if (!user) throw new Error("no user");
    await db.insert(tracks).values({ artistId: artist.id, title: "Running, Dvořák's Nights!" });
    await db.insert(albums).values({ artistId: artist.id, title: "東京フラッシュ 2024" });
    await db.insert(playlists).values({ userId: user.id, title: "of the Mixtape ab" });

    expect(
      await stored([
        "wordsmith",
        "bjork",
        "running",
        "dvorak",
        "nights",
        "東京フラッシュ",
        "2024",
        "the",
        "mixtape",
      ]),
    ).toEqual({
      wordsmith: "'wordsmith'",
      bjork: "'bjork'",
      // The English stem, as the titles' search_vector holds it.
      running: "'run'",
      dvorak: "'dvorak'",
      nights: "'night'",
      東京フラッシュ: "'東京フラッシュ'",
      "2024": "'2024'",
      // A stop word: no full-text query can find a title by it.
      the: null,
      mixtape: "'mixtap'",
    });
    // Shorter than 3 characters: never a near spelling of a 4-letter word worth a lookup.
    expect(await stored(["of", "ab", "s"])).toEqual({});
  });

  it("collects a renamed title's new words, and keeps each word once", async () => {
    const [artist] = await db
      .insert(artists)
      .values({ username: "renamer", email: "r@example.com" })
      .returning();
    if (!artist) throw new Error("no artist");
    const [track] = await db
      .insert(tracks)
      .values([
        { artistId: artist.id, title: "Quietude" },
        { artistId: artist.id, title: "Quietude quietude" },
      ])
      .returning();
    if (!track) throw new Error("no track");
    await db.update(tracks).set({ title: "Thunderclap" }).where(eq(tracks.id, track.id));

    expect(await stored(["quietude", "thunderclap"])).toEqual({
      quietude: "'quietud'",
      thunderclap: "'thunderclap'",
    });
  });
});
