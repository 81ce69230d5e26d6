import { inject } from "vitest";
import { createDatabase, type TestDatabase } from "../src/test-databases";

export type { TestDatabase };

/** A fresh, empty database on the test server; each test file gets its own. */
export function createTestDatabase(): Promise<TestDatabase> {
  return createDatabase(inject("infra").databaseUrl, "test");
}
