import type { Socket } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "./support";

interface Connected {
  connection: { stream: Socket };
}

async function exists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "3D000") return false; // invalid_catalog_name
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

describe("a test database's drop", () => {
  it("lets a pool that was just ended close its connections: the pool sees no error", async () => {
    const database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    const errors: unknown[] = [];
    pool.on("error", (error) => errors.push(error));
    const sockets: Socket[] = [];
    // pg's Client keeps its socket on a field its types do not name.
    pool.on("connect", (client) =>
      sockets.push((client as unknown as Connected).connection.stream),
    );
    await Promise.all(Array.from({ length: 4 }, () => pool.query("SELECT pg_sleep(0.05)")));
    // `pool.end()` resolves once it has asked its connections to close, not once they have. Hold
    // their goodbyes for 200 ms, as a loaded machine can, so the drop starts while they close.
    for (const socket of sockets) socket.cork();
    await pool.end();
    const held = setTimeout(() => {
      for (const socket of sockets) socket.uncork();
    }, 200);
    await database.drop();
    clearTimeout(held);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
    expect(await exists(database.url)).toBe(false);
  });

  it("still drops a database that a forgotten connection keeps open", async () => {
    const database = await createTestDatabase();
    const forgotten = new pg.Client({ connectionString: database.url });
    await forgotten.connect();
    const ended = new Promise<unknown>((resolve) => forgotten.on("error", resolve));
    await database.drop();
    expect(await exists(database.url)).toBe(false);
    expect(await ended).toMatchObject({ code: "57P01" }); // admin_shutdown: ended by FORCE
  });
});
