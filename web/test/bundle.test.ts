// The player's first load stays small, and holds neither hls.js (fetched when the page is idle or
// by the first play) nor the studio (fetched when an artist opens it): a listener never
// downloads the studio's code.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const BUDGET_KIB = 150;
/** The embeddable player (/embed/…, ADR 0027): framed on other sites' pages, kept small. */
const EMBED_BUDGET_KIB = 12;
const web = fileURLToPath(new URL("..", import.meta.url));
const studioDir = join(web, "src", "pages", "studio");
const inStudio = (id: string) => id.startsWith(`${studioDir}${sep}`);
/** Words that only a studio page shows, one per page. */
const STUDIO_WORDS = [
  "Upload your first track",
  "Upload another",
  "No albums yet. Tracks can be added",
  "See your public page",
  "New followers",
];

let outDir: string;
let chunks: Rolldown.OutputChunk[];
let html: string;
let embedHtml: string;
/** The files the browser fetches to show any page: the entry, its static imports, their CSS. */
let firstLoad: Set<string>;
/** The same for the embed page. */
let embedLoad: Set<string>;

const gzipKiB = async (file: string) =>
  gzipSync(await readFile(join(outDir, file)), { level: 9 }).length / 1024;

const sum = async (files: Iterable<string>) => {
  let total = 0;
  for (const file of files) total += await gzipKiB(file);
  return total;
};

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "edge-music-web-"));
  const result = await build({
    root: web,
    logLevel: "silent",
    build: { outDir, emptyOutDir: true },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  chunks = output.output.filter((o): o is Rolldown.OutputChunk => o.type === "chunk");
  html = await readFile(join(outDir, "index.html"), "utf8");
  embedHtml = await readFile(join(outDir, "embed.html"), "utf8");
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const loadOf = (page: string) => {
    const load = new Set<string>();
    const visit = (chunk: Rolldown.OutputChunk | undefined) => {
      if (!chunk || load.has(chunk.fileName)) return;
      load.add(chunk.fileName);
      for (const css of chunk.viteMetadata?.importedCss ?? []) load.add(css);
      for (const file of chunk.imports) visit(byName.get(file));
    };
    for (const entry of chunks.filter((c) => c.isEntry && c.facadeModuleId?.endsWith(page))) {
      visit(entry);
    }
    return load;
  };
  firstLoad = loadOf(`${sep}index.html`);
  embedLoad = loadOf(`${sep}embed.html`);
}, 60_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe("the web player's bundle", () => {
  test(`fetches at most ${BUDGET_KIB} KiB gzip before any page but the studio's shows`, async () => {
    // What the page names is what the browser fetches: all of it is counted.
    const named = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const file of named) expect(firstLoad, file).toContain(file);
    const scripts = await sum([...firstLoad].filter((f) => f.endsWith(".js")));
    const styles = await sum([...firstLoad].filter((f) => f.endsWith(".css")));
    const page = gzipSync(html, { level: 9 }).length / 1024;
    const studio = await sum(chunks.filter((c) => c.name === "studio").map((c) => c.fileName));
    const hls = await sum(
      chunks.filter((c) => c.fileName.startsWith("assets/hls")).map((c) => c.fileName),
    );
    const total = scripts + styles + page;
    console.log(
      `web first load: ${total.toFixed(1)} KiB gzip (script ${scripts.toFixed(1)}, CSS ${styles.toFixed(1)}, page ${page.toFixed(1)}); studio chunk ${studio.toFixed(1)} KiB; hls.js chunk ${hls.toFixed(1)} KiB`,
    );
    expect(total).toBeLessThanOrEqual(BUDGET_KIB);
  });

  test("keeps the statistics' chart library (uPlot) in the studio's chunk, outside the first load", () => {
    const uplot = /[\\/]uplot[\\/]dist[\\/]/;
    const holding = chunks.filter((c) => c.moduleIds.some((id) => uplot.test(id)));
    expect(holding.map((c) => c.name)).toEqual(["studio"]);
    for (const c of chunks.filter((c) => firstLoad.has(c.fileName))) {
      expect(c.moduleIds.filter((id) => uplot.test(id))).toEqual([]);
    }
  });

  test("keeps hls.js in a chunk of its own, outside the first load", () => {
    const hls = chunks.filter((c) => c.fileName.startsWith("assets/hls"));
    expect(hls, "hls.js is its own chunk").toHaveLength(1);
    const [chunk] = hls;
    expect(firstLoad).not.toContain(chunk?.fileName);
    expect(html).not.toContain(chunk?.fileName);
  });

  test("keeps the studio's pages in one chunk of their own, fetched only when one opens", async () => {
    const sources = (await readdir(studioDir)).map((file) => join(studioDir, file));
    const studio = chunks.filter((c) => c.moduleIds.some(inStudio));
    expect(studio.map((c) => c.name)).toEqual(["studio"]);
    const [chunk] = studio;
    if (!chunk) throw new Error("no studio chunk");
    expect(chunk.moduleIds.filter(inStudio).sort()).toEqual(sources.sort());
    // Imported by nothing of the first load, which loads it on demand.
    expect(firstLoad).not.toContain(chunk.fileName);
    const onDemand = chunks.filter((c) => c.dynamicImports.includes(chunk.fileName));
    expect(onDemand.length).toBeGreaterThan(0);
    for (const c of onDemand) expect(firstLoad).toContain(c.fileName);
    expect(html).not.toContain(chunk.fileName);
    const code = chunk.code;
    const first = await Promise.all(
      [...firstLoad].filter((f) => f.endsWith(".js")).map((f) => readFile(join(outDir, f), "utf8")),
    );
    for (const words of STUDIO_WORDS) {
      expect(code, words).toContain(words);
      for (const script of first) expect(script, words).not.toContain(words);
    }
  });
});

describe("the embeddable player's bundle", () => {
  test(`fetches at most ${EMBED_BUDGET_KIB} KiB gzip before it shows, hls.js on play only`, async () => {
    const named = [...embedHtml.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const file of named) expect(embedLoad, file).toContain(file);
    const scripts = await sum([...embedLoad].filter((f) => f.endsWith(".js")));
    const styles = await sum([...embedLoad].filter((f) => f.endsWith(".css")));
    const page = gzipSync(embedHtml, { level: 9 }).length / 1024;
    const total = scripts + styles + page;
    console.log(
      `embed first load: ${total.toFixed(1)} KiB gzip (script ${scripts.toFixed(1)}, CSS ${styles.toFixed(1)}, page ${page.toFixed(1)})`,
    );
    expect(total).toBeLessThanOrEqual(EMBED_BUDGET_KIB);
    // Neither hls.js nor anything of the player's app (Preact, the client, the studio) up front.
    const hls = chunks.find((c) => c.fileName.startsWith("assets/hls"));
    expect(embedLoad).not.toContain(hls?.fileName);
    const loaded = chunks.filter((c) => embedLoad.has(c.fileName));
    for (const id of loaded.flatMap((c) => c.moduleIds)) {
      expect(id).not.toMatch(/node_modules[\\/](preact|@preact|openapi-fetch)|[\\/]pages[\\/]/);
    }
    // The embed fetches hls.js itself, on the first play.
    const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith(`${sep}embed.html`));
    expect(entry?.dynamicImports).toContain(hls?.fileName);
  });
});
