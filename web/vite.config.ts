// The web player's build: dist/ of this package, copied into the Worker's static assets
// (dist/assets at the repository's root) by scripts/build-assets.ts. hls.js is its own chunk,
// loaded on the first play, so the first load carries only the app.
import { defineConfig } from "vite";

const API = "http://localhost:8787";

export default defineConfig({
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The budget is the gzip size without hls.js (scripts/release/test: web bundle test).
    chunkSizeWarningLimit: 600,
    modulePreload: { polyfill: false },
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
