# syntax=docker/dockerfile:1.7
# The database migrations as a one-shot image, published with every release at v<version> so a
# deploy (or a rollback) runs exactly the migrations of that release. Build from the repository root:
#   docker build -f deploy/migrate.Dockerfile -t edge-music/migrate .
# Run: docker run --rm -e DATABASE_URL=postgres://… edge-music/migrate
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /src
RUN corepack enable
COPY . .
# db has no bundler of its own yet: the transcoder's esbuild (same lockfile) bundles db's migrate
# CLI into one file. pg-native is pg's optional native binding, absent on purpose.
RUN pnpm install --frozen-lockfile --filter "@edge-music/db..." --filter "@edge-music/transcoder" \
 && pnpm --filter @edge-music/transcoder exec esbuild ../db/src/migrate-cli.ts \
      --bundle --platform=node --target=node22 --format=esm --external:pg-native \
      "--banner:js=import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" \
      --outfile=/out/bin/migrate.mjs \
 && cp -r db/migrations /out/migrations

FROM node:22.23.3-bookworm-slim AS runtime
WORKDIR /app
# migrate.ts finds ../migrations next to the bundle's folder: /app/bin/migrate.mjs → /app/migrations.
COPY --from=build /out/ ./
ENV NODE_ENV=production
USER node
CMD ["node", "bin/migrate.mjs"]
