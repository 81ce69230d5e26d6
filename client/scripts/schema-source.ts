// The generated types of the API: the OpenAPI document as the Worker serves it (built in Node by
// worker/scripts/openapi-document.ts, the same file `pnpm run lint:openapi` checks), turned into
// TypeScript by openapi-typescript. Shared by `pnpm run generate` and the test that fails when the
// committed src/schema.d.ts is behind the document.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const SCHEMA_FILE = fileURLToPath(new URL("../src/schema.d.ts", import.meta.url));

/** The document, written by the Worker's own script into a temporary file, then read back. */
export async function buildDocument(): Promise<object> {
  const dir = await mkdtemp(join(tmpdir(), "edge-music-client-"));
  try {
    const file = join(dir, "openapi.json");
    await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "worker/scripts/openapi-document.ts", file],
      { cwd: root },
    );
    return JSON.parse(await readFile(file, "utf8")) as object;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of src/schema.d.ts for the current document. */
export async function generateSchema(): Promise<string> {
  const document = await buildDocument();
  // biome-ignore lint/suspicious/noExplicitAny: openapi-typescript types its input as its own OpenAPI3 shape.
  const ast = await openapiTS(document as any, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}
