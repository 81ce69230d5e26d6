// The Worker's static assets (wrangler.toml `[assets]`, served from our own origin before the
// Worker for paths outside /api and /static): the API reference's script, copied from the pinned
// @scalar/api-reference package, so the reference page loads nothing from another origin.
// Run by every `./run …` (scripts/setup.sh); cheap when nothing changed.
import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "assets");
const scalar = join(root, "worker", "node_modules", "@scalar", "api-reference");

/** Copies `from` to `to` unless `to` has the same size and is not older. */
async function copyIfChanged(from: string, to: string) {
  const [source, target] = await Promise.all([stat(from), stat(to).catch(() => undefined)]);
  if (target && target.size === source.size && target.mtimeMs >= source.mtimeMs) return;
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
}

const { version } = JSON.parse(await readFile(join(scalar, "package.json"), "utf8")) as {
  version: string;
};
await copyIfChanged(
  join(scalar, "dist", "browser", "standalone.js"),
  join(out, "api-reference", "standalone.js"),
);
await writeFile(join(out, "api-reference", "VERSION"), `${version}\n`);
// Workers static assets read `_headers` (Netlify's format): the script is revalidated (ETag) and
// may be used by any page of ours only.
await writeFile(
  join(out, "_headers"),
  [
    "/api-reference/*",
    "  Cache-Control: public, max-age=3600, must-revalidate",
    "  X-Content-Type-Options: nosniff",
    "  Cross-Origin-Resource-Policy: same-origin",
    "",
  ].join("\n"),
);
