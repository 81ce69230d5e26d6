// Bundles the transcoder into one ESM file for the container image (no node_modules, no tsx).
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.mjs",
  bundle: true,
  platform: "node",
  target: "node22",
  format: "esm",
  sourcemap: true,
  // CommonJS dependencies (ioredis, the AWS SDK) call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Optional native speed-ups of `ws`; it falls back to JavaScript without them.
  external: ["bufferutil", "utf-8-validate"],
  logLevel: "warning",
});
