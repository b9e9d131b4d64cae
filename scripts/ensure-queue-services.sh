#!/usr/bin/env bash
# The servers of the queue-mode test level: Redis (n8n's job queue) and PostgreSQL (the database
# n8n's main, worker and webhook processes share; n8n supports queue mode on PostgreSQL only).
# Installs Debian's redis-server / postgresql when missing (apt-get, as root), then prints one
# line of JSON with the programs to run: {"redisServer","initdb","postgres"}. Starts nothing.
# Fails with a message naming what is missing when it cannot install it: never a silent skip.
set -euo pipefail
say() { echo "[ensure-queue-services] $*" >&2; }

pg_bin() {
  # the newest PostgreSQL of Debian's layout, else whatever is on PATH
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then echo "$dir"; return 0; fi
  command -v initdb >/dev/null && command -v postgres >/dev/null && dirname "$(command -v initdb)" && return 0
  return 1
}

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
pg_bin >/dev/null || missing+=(postgresql)

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
    say "missing: ${missing[*]}. Install them (Debian/Ubuntu: sudo apt-get install -y ${missing[*]}) and run the tests again."
    exit 1
  fi
  say "installing ${missing[*]} (apt-get, once)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || true
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    say "apt-get could not install ${missing[*]}: the queue-mode tests need them"
    exit 1
  fi
  # Debian starts the services it installs; the tests run their own on free ports
  for svc in redis-server postgresql; do
    if command -v service >/dev/null; then service "$svc" stop >/dev/null 2>&1 || true; fi
  done
fi

redis="$(command -v redis-server)" || { say "redis-server is still missing after installing it"; exit 1; }
bin="$(pg_bin)" || { say "PostgreSQL's initdb/postgres are still missing after installing postgresql"; exit 1; }
printf '{"redisServer":"%s","initdb":"%s","postgres":"%s"}\n' "$redis" "$bin/initdb" "$bin/postgres"
