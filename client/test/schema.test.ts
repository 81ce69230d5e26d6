// The CI check that the committed types are current: the document is built as `pnpm run generate`
// builds it and turned into types in memory; any difference fails with the command that fixes it.
import { readFile } from "node:fs/promises";
import { expect, test } from "vitest";
import { generateSchema, SCHEMA_FILE } from "../scripts/schema-source.ts";

/** Where two texts part, as `line N: committed … / generated …`. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split("\n");
  const b = generated.split("\n");
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}`;
}

test("src/schema.d.ts is the current document's types", async () => {
  const [generated, committed] = await Promise.all([
    generateSchema(),
    readFile(SCHEMA_FILE, "utf8"),
  ]);
  if (committed === generated) return;
  expect.fail(
    `src/schema.d.ts is behind the OpenAPI document (${firstDifference(committed, generated)}): run \`pnpm --filter @edge-music/client run generate\` and commit it`,
  );
});
