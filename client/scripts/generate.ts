/** `pnpm --filter @edge-music/client run generate`: rewrites src/schema.d.ts from the document. */
import { writeFile } from "node:fs/promises";
import { generateSchema, SCHEMA_FILE } from "./schema-source.ts";

await writeFile(SCHEMA_FILE, await generateSchema());
console.log(`Types written to ${SCHEMA_FILE}`);
