// The Worker's static assets (wrangler.toml `[assets]`, served from our own origin before the
// Worker for paths outside /api and /static): the web player (web/, built by Vite) at /, and the
// API reference's script, copied from the pinned @scalar/api-reference package, so neither loads
// anything from another origin. Run by every `./run …` (scripts/setup.sh); when nothing the
// player is made of changed since the last build, the build is skipped.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PAGE_CSP, PAGE_HEADERS } from "../contracts/src/page-headers.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "assets");
const web = join(root, "web");
const scalar = join(root, "worker", "node_modules", "@scalar", "api-reference");
const STAMP = join(root, "dist", "web-build.stamp");

/** Copies `from` to `to` unless `to` has the same size and is not older. */
async function copyIfChanged(from: string, to: string) {
  const [source, target] = await Promise.all([stat(from), stat(to).catch(() => undefined)]);
  if (target && target.size === source.size && target.mtimeMs >= source.mtimeMs) return;
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** What the player's build depends on: its sources, the client's, the lockfile (paths, sizes, times). */
async function webInputs(): Promise<string> {
  const hash = createHash("sha256");
  const inputs = [
    join(web, "index.html"),
    join(web, "embed.html"),
    join(web, "vite.config.ts"),
    join(web, "package.json"),
    join(root, "pnpm-lock.yaml"),
  ];
  for (const dir of [join(web, "src"), join(web, "public"), join(root, "client", "src")]) {
    for await (const file of files(dir)) inputs.push(file);
  }
  for (const file of inputs.sort()) {
    const s = await stat(file);
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest("hex");
}

async function buildWeb(): Promise<void> {
  const inputs = await webInputs();
  const built = await readFile(STAMP, "utf8").catch(() => "");
  const present = await stat(join(out, "index.html")).catch(() => undefined);
  if (built === inputs && present) return;
  const vite = createRequire(join(web, "package.json")).resolve("vite");
  // Resolved from web/ (the root does not depend on Vite).
  const { build } = (await import(pathToFileURL(vite).href)) as {
    build(config: Record<string, unknown>): Promise<unknown>;
  };
  // Straight into the assets folder, emptied first: no file of an older build stays behind.
  await build({
    root: web,
    configFile: join(web, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir: out, emptyOutDir: true },
  });
  await writeFile(STAMP, inputs);
}

await buildWeb();

const { version } = JSON.parse(await readFile(join(scalar, "package.json"), "utf8")) as {
  version: string;
};
await copyIfChanged(
  join(scalar, "dist", "browser", "standalone.js"),
  join(out, "api-reference", "standalone.js"),
);
await writeFile(join(out, "api-reference", "VERSION"), `${version}\n`);
// Workers static assets read `_headers` (Netlify's format). The player's pages: nothing from
// another origin (media and hls.js's worker from blob: URLs of this page), no framing; the same
// headers the Worker sends on the pages it answers itself (contracts/src/page-headers.ts). Hashed
// files never change; the reference's script is revalidated (ETag) and may be used by our pages only.
await writeFile(
  join(out, "_headers"),
  [
    "/*",
    `  Content-Security-Policy: ${PAGE_CSP}`,
    ...Object.entries(PAGE_HEADERS).map(([name, value]) => `  ${name}: ${value}`),
    "/assets/*",
    "  Cache-Control: public, max-age=31536000, immutable",
    "/api-reference/*",
    "  Cache-Control: public, max-age=3600, must-revalidate",
    "  Cross-Origin-Resource-Policy: same-origin",
    "",
  ].join("\n"),
);
