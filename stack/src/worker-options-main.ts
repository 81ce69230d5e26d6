// The child of buildWorkerBundle (worker-bundle.ts) that writes the Miniflare options wrangler
// derives from a wrangler.toml: `node worker-options-main.ts <wrangler.toml> <out.json>`.
import { writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { wranglerCli } from "./worker-bundle.ts";

const [config, out] = process.argv.slice(2);
if (!config || !out) throw new Error("usage: worker-options-main.ts <wrangler.toml> <out.json>");
const wrangler = await import(pathToFileURL(wranglerCli()).href);
const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(config);
await writeFile(out, JSON.stringify(workerOptions));
