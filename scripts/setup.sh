#!/usr/bin/env bash
# Makes this machine ready to run the stack and the tests, without touching the system's Node:
#   - Node >= 22.12 (wrangler needs it): the system one when new enough, else a project-local copy
#     unpacked from the npm registry into .tools/ (the registry ships the official binaries),
#   - pnpm at the version pinned in package.json ("packageManager"), project-local,
#   - ffmpeg/ffprobe, redis-server, pgbouncer, shellcheck, chromium-headless-shell and
#     sublime-music through apt when missing (Debian/Ubuntu), else a clear message,
#   - the workspace's dependencies (frozen lockfile).
# Idempotent: a second run only checks and takes a few seconds.
# Source it (`. scripts/setup.sh`) to get PATH set for the current shell.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
node_version="22.23.3"
pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")"
export npm_config_loglevel=error npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

say() { printf '[setup] %s\n' "$*" >&2; }

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

fetch_npm_tarball() { # <package@version> <destination dir>
  local tmp; tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "$1" >/dev/null)
  mkdir -p "$2"
  tar -xzf "$tmp"/*.tgz -C "$2" --strip-components=1
  rm -rf "$tmp"
}

ensure_node() {
  export PATH="$tools/node/bin:$tools/pnpm/bin:$PATH"
  if node_ok; then return; fi
  command -v npm >/dev/null 2>&1 || { say "need npm (any Node.js) to fetch Node $node_version"; exit 1; }
  local arch
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) say "unsupported CPU $(uname -m)"; exit 1 ;; esac
  say "installing Node $node_version into .tools/node (project-local)"
  rm -rf "$tools/node"
  fetch_npm_tarball "node-linux-$arch@$node_version" "$tools/node"
  hash -r
  node_ok || { say "Node $node_version did not install correctly"; exit 1; }
}

ensure_pnpm() {
  if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$pnpm_version" ]; then return; fi
  say "installing pnpm $pnpm_version into .tools/pnpm"
  rm -rf "$tools/pnpm"
  fetch_npm_tarball "pnpm@$pnpm_version" "$tools/pnpm-pkg"
  mkdir -p "$tools/pnpm/bin"
  printf '#!/bin/sh\nexec node "%s/pnpm-pkg/bin/pnpm.cjs" "$@"\n' "$tools" > "$tools/pnpm/bin/pnpm"
  chmod +x "$tools/pnpm/bin/pnpm"
  hash -r
}

ensure_system_binaries() {
  local missing=()
  command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  # The stack puts PgBouncer in front of Postgres, as Neon's pooled endpoint (in /usr/sbin).
  [ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1 || missing+=(pgbouncer)
  # The release workflows' `run:` steps are checked with shellcheck by the test command.
  command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
  # The e2e suite drives Debian's headless Chromium (the old headless shell, which Playwright itself
  # runs headless: a third of the CPU of `chromium --headless`) with playwright-core.
  [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
  # A real Subsonic app's protocol code (e2e/test/subsonic-app.test.ts drives its adapter).
  [ -d /usr/lib/python3/dist-packages/sublime_music ] || missing+=(sublime-music)
  [ ${#missing[@]} -eq 0 ] && return
  if command -v apt-get >/dev/null 2>&1; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "installing ${missing[*]} through apt"
    $sudo apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing: ${missing[*]}. Install them with your system's package manager (ffmpeg >= 5 with ffprobe, redis-server >= 6, pgbouncer, shellcheck, chromium-headless-shell, sublime-music), then run again."
    exit 1
  fi
}

ensure_dependencies() {
  local stamp="$root/node_modules/.setup-stamp"
  local want; want="$(cat "$root/pnpm-lock.yaml" "$root/package.json" | sha1sum | cut -d' ' -f1)-$(node --version)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  say "installing workspace dependencies (frozen lockfile)"
  (cd "$root" && pnpm install --frozen-lockfile --reporter=silent)
  echo "$want" > "$stamp"
}

ensure_node
ensure_pnpm
ensure_system_binaries
[ "${SETUP_SKIP_INSTALL:-}" = 1 ] || ensure_dependencies
# The Worker's static assets (wrangler.toml [assets]): wrangler and the tests need the folder.
[ "${SETUP_SKIP_INSTALL:-}" = 1 ] || (cd "$root" && node --import tsx scripts/build-assets.ts)
