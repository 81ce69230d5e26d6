// The web player's build: dist/ of this package, copied into the Worker's static assets
// (dist/assets at the repository's root) by scripts/build-assets.ts. hls.js and the studio are
// chunks of their own, outside the first load: hls.js is fetched when the page is idle or by the
// first play, the studio when an artist opens it.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const API = "http://localhost:8787";

export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The budget is the first load's gzip size (web/test/bundle.test.ts).
    chunkSizeWarningLimit: 600,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Two pages: the player (every path) and the embeddable player (/embed/…, ADR 0027), which
      // share only hls.js's chunk and the small pure helpers they both import.
      input: {
        index: fileURLToPath(new URL("index.html", import.meta.url)),
        embed: fileURLToPath(new URL("embed.html", import.meta.url)),
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // The studio's pages (lazy routes of app.tsx) as one chunk: an artist fetches it
              // once, a listener never. Only the studio's own files: what they share with the
              // other pages stays in the first load (web/test/bundle.test.ts checks both).
              // The upload page's list of formats (contracts) goes with it: left to itself it
              // lands in the page's own entry chunk, which imports the studio's while the studio's
              // imports it back, and the page fails with the list not yet defined.
              // The statistics page's chart library (uPlot) too: an artist's alone.
              name: "studio",
              test: /[\\/]src[\\/]pages[\\/]studio[\\/]|[\\/]contracts[\\/]src[\\/]audio-names\.ts$|[\\/]uplot[\\/]dist[\\/]/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    // `vite` alone, for work on the player with hot reload: the API is the dev stack's Worker,
    // reached as if from its own origin (its origin check lets writes from there through).
    proxy: Object.fromEntries(
      ["/api", "/static"].map((path) => [
        path,
        { target: API, changeOrigin: true, headers: { origin: API } },
      ]),
    ),
  },
});
