import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// No database here: this only reads source files.

const src = fileURLToPath(new URL("../src/", import.meta.url));

/** Every bare specifier imported by `entry` and the local files it imports, transitively. */
function packagesImportedBy(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, "utf8");
    for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (!specifier) continue;
      if (!specifier.startsWith(".")) {
        packages.add(specifier);
        continue;
      }
      const base = resolve(dirname(file), specifier);
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((p) => existsSync(p));
      if (!target) throw new Error(`${file}: cannot resolve ${specifier}`);
      visit(target);
    }
  };
  visit(resolve(src, entry));
  return packages;
}

// What a Worker may load: no node: built-ins, no TCP driver, no `ws`.
const WORKER_SAFE = [
  "@neondatabase/serverless",
  "drizzle-orm",
  "drizzle-orm/neon-http",
  "drizzle-orm/neon-serverless",
];
const isWorkerSafe = (specifier: string) =>
  WORKER_SAFE.includes(specifier) || specifier.startsWith("drizzle-orm/pg-core");

describe("modules the Worker imports", () => {
  it.each(["index.ts", "client.ts", "schema/index.ts"])(
    "%s pulls in nothing Node-only",
    (entry) => {
      const packages = [...packagesImportedBy(entry)];
      expect(packages.length).toBeGreaterThan(0);
      expect(packages.filter((p) => !isWorkerSafe(p))).toEqual([]);
    },
  );

  it("the check itself notices Node-only imports", () => {
    expect([...packagesImportedBy("node.ts")].filter((p) => !isWorkerSafe(p))).toEqual(["ws"]);
    expect([...packagesImportedBy("migrate.ts")].filter((p) => !isWorkerSafe(p))).toEqual([
      "node:url",
      "drizzle-orm/node-postgres",
      "drizzle-orm/node-postgres/migrator",
      "pg",
    ]);
  });
});
