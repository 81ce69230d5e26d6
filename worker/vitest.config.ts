import { builtinModules } from "node:module";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Loaded module by module under the pool, ioredis's `require("debug")` resolves to its own
// utils/debug.js and recurses forever; pre-bundled (as wrangler bundles it for production) it works.
const builtins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "../wrangler.toml" },
      miniflare: {
        // Valid placeholders so the entry's startup check passes; tests point each request at the
        // real infrastructure (see test/support/env.ts).
        bindings: {
          DATABASE_URL: "postgres://placeholder@127.0.0.1:9/placeholder",
          REDIS_URL: "redis://127.0.0.1:9",
          PUBLIC_BASE_URL: "http://localhost:8787",
          FRONTEND_URL: "http://localhost:5173",
          LOG_LEVEL: "warn",
          // Test-only secrets (the real ones are `wrangler secret put`).
          JWT_SECRET: "test-only-jwt-secret-0123456789abcdef",
          ENCRYPTION_KEY: "dGVzdC1vbmx5LWVuY3J5cHRpb24ta2V5LTMyYnl0ZXM=",
          // Pinned: a .dev.vars left by `./run dev` must not switch the tests to S3.
          STORAGE_DRIVER: "r2",
          // Over a thousand sign-ups and password changes: argon2id at its least cost here (a
          // third of this project's CPU otherwise). The standard cost is pinned by
          // test/security/argon2.test.ts; the e2e stack's Worker hashes at the standard cost.
          PASSWORD_HASH_COST: "minimal-for-tests",
        },
      },
    }),
  ],
  test: {
    name: "worker",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // One workerd (and one import of the Worker) serves many test files instead of a new one per
    // file: starting workerd and importing the Worker anew was most of this project's time. Test
    // files share nothing but the module cache: each makes its own rows, keys and accounts.
    isolate: false,
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: ["ioredis"],
          rolldownOptions: { platform: "node", external: builtins },
        },
      },
    },
  },
});
