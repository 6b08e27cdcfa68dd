#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests and prints its URL on the last line.
# Usage: scripts/pg-cluster.sh start <dir>   |   scripts/pg-cluster.sh stop <dir>
# Installs Debian's postgresql when it is missing and we are root; otherwise says what to install.
set -euo pipefail
cmd=${1:?start or stop}
dir=${2:?cluster directory}

find_bin() {
  local name=$1
  command -v "$name" 2>/dev/null && return 0
  ls -d /usr/lib/postgresql/*/bin/"$name" 2>/dev/null | sort -V | tail -n 1
}

if [ "$cmd" = stop ]; then
  pg_ctl=$(find_bin pg_ctl || true)
  if [ -n "$pg_ctl" ] && [ -f "$dir/data/postmaster.pid" ]; then
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    else "$pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
  fi
  rm -rf "$dir"
  exit 0
fi

initdb=$(find_bin initdb || true)
if [ -z "$initdb" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "PostgreSQL is missing: installing Debian's postgresql…" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) >&2
    initdb=$(find_bin initdb || true)
  fi
fi
if [ -z "$initdb" ]; then
  echo "PostgreSQL not found: install the Debian package 'postgresql' (apt-get install postgresql) to run the PostgreSQL suite." >&2
  exit 3
fi
pg_ctl=$(dirname "$initdb")/pg_ctl

# PostgreSQL refuses to run as root: run the cluster as the 'postgres' system user.
as_pg=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as_pg=(runuser -u postgres --)
fi

mkdir -p "$dir"
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"${as_pg[@]}" "$initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=300" start >&2 ||
  { cat "$dir/server.log" >&2; exit 1; }
echo "postgres://postgres@127.0.0.1:$port/postgres"
