/**
 * Writes the OpenAPI document the Worker serves at /api/v1/openapi.json to a file (default
 * dist/openapi.json from the repository's root), built in Node from the same `createApp()`, for
 * the linter (`pnpm run lint:openapi`, redocly.yaml) and client generators.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import { dirname, resolve } from "node:path";

// The argon2 WebAssembly module is imported as a compiled module in workerd; building the
// document runs no handler, so Node gets an empty stand-in instead of a loader for it.
register(
  `data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  if (url.endsWith(".wasm")) return { format: "module", source: "export default null;", shortCircuit: true };
  return next(url, context);
}`)}`,
);

const { createApp } = await import("../src/app.ts");
const { openApiDocumentOf } = await import("../src/openapi/reference.ts");

const target = resolve(process.argv[2] ?? "dist/openapi.json");
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocumentOf(createApp()), null, 2)}\n`);
console.log(`OpenAPI document written to ${target}`);
