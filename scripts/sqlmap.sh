#!/usr/bin/env bash
# sqlmap against a server of its own (fresh DATA_DIR, demo data), logged in as the administrator:
# every list call's OrderName, search fields and filters (scripts/sqlmap-targets.ts derives them from
# the descriptors) and the login body, each at --level=5 --risk=3. Exits 1 if sqlmap reports any
# injectable parameter, an HTTP 500, or does not finish; prints what it tested.
#
# Bounds (about 5 minutes on two cores): --dbms matches the server's engine (SQLite here), so
# sqlmap sends that engine's payloads and the generic ones, not those of MySQL, Oracle, MSSQL… that
# cannot execute on it (any syntax error they caused would be a 500, and tests/api/fuzz.test.ts
# shows none); with every DBMS, level 5 costs ~8,000 requests per parameter instead of ~800.
# --time-sec=2 shortens the time-based tests; 4 threads.
#
# Without sqlmap: installed from Debian when we are root, otherwise SKIPPED (exit 0), or a failure
# when REQUIRE_SQLMAP=1.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v sqlmap >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "sqlmap is missing: installing Debian's sqlmap…"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlmap >/dev/null) || true
fi
if ! command -v sqlmap >/dev/null; then
  if [ "${REQUIRE_SQLMAP:-0}" = 1 ]; then
    echo "sqlmap is not installed and REQUIRE_SQLMAP=1: failing (apt-get install sqlmap)." >&2
    exit 1
  fi
  echo "sqlmap SKIPPED: not installed (apt-get install sqlmap)." >&2
  exit 0
fi

work=$(mktemp -d /tmp/zhishi-sqlmap-XXXXXX)
port=$((19000 + RANDOM % 1000))
base="http://127.0.0.1:$port"
password="sqlmap-$RANDOM-$RANDOM"
server_pid=""
reset_pid=""
cleanup() {
  [ -n "$reset_pid" ] && kill "$reset_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The server itself (node, not npx, so that $! is the process listening).
DATA_DIR="$work/data" PORT="$port" HOST=127.0.0.1 ADMIN_PASSWORD="$password" DEMO_DATA=1 LOG=0 \
  PUBLIC_DIR="$work/no-app" DATABASE_URL= STORAGE=local \
  node --import tsx server/src/server.ts >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 120); do
  grep -q "http://" "$work/server.log" && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.5
done
grep -q "http://" "$work/server.log" || { echo "server did not start" >&2; exit 1; }

cookie=$(curl -s -D - -o /dev/null -H 'content-type: application/json' \
  -d "{\"UserName\":\"admin\",\"Password\":\"$password\"}" "$base/Ajax/Login" |
  sed -n -E 's/^[Ss]et-[Cc]ookie: ([^;]*).*/\1/p' | tr -d '\r')
[ -n "$cookie" ] || { echo "could not log in" >&2; exit 1; }

common=(--batch --disable-coloring -v 1 --level=5 --risk=3 --dbms=SQLite --threads=4 --time-sec=2
  --flush-session --output-dir="$work/out")
started=$(date +%s)
n=0
run() { # run <name> <sqlmap args…>: one target, its own log and traffic file
  local name=$1
  shift
  n=$((n + 1))
  if ! timeout 420 sqlmap "${common[@]}" -t "$work/traffic-$n.txt" "$@" >"$work/sqlmap-$n.log" 2>&1; then
    echo "sqlmap failed or ran out of time on $name:" >&2
    tail -20 "$work/sqlmap-$n.log" >&2
    exit 1
  fi
  local requests
  requests=$(grep -c '^HTTP request \[#' "$work/traffic-$n.txt" || true)
  printf '  %-40s %-40s %6s requests\n' "$name" "$params" "$requests"
}

echo "== sqlmap $(sqlmap --version 2>/dev/null | head -1) --level=5 --risk=3 on $base"
while IFS=$'\t' read -r url params; do
  path=${url#"$base"}
  run "GET ${path%%\?*}" -u "$url" -p "$params" --cookie "$cookie"
done < <(npx tsx scripts/sqlmap-targets.ts "$work/data" "$base")

# The login body. Its throttle (20 failures per address in 15 minutes) would soon answer every
# request with the same 429, hiding whatever the body does; the failure counts are cleared while
# sqlmap runs so that it sees the login's real answers. A wrong login is a 401, which sqlmap takes
# for "HTTP authentication needed" and stops at, unless told to ignore it.
node -e "
  const db = new (require('better-sqlite3'))(process.argv[1]);
  setInterval(() => db.prepare('DELETE FROM LOGIN_THROTTLE').run(), 50);
" "$work/data/zhishi.sqlite" &
reset_pid=$!
params="UserName,Password"
run "POST /Ajax/Login (JSON body)" -u "$base/Ajax/Login" --data '{"UserName":"admin","Password":"wrong-password"}' \
  -p "$params" --headers="Content-Type: application/json" --ignore-code=401
kill "$reset_pid" 2>/dev/null || true
reset_pid=""

# Findings: sqlmap names every injection point it finds ("… is vulnerable", "identified the
# following injection point(s)"); HTTP 500 answers are failures of the server.
logs=("$work"/sqlmap-*.log)
requests=$(cat "$work"/traffic-*.txt | grep -c '^HTTP request \[#' || true)
tested=$(grep -h -o -E "(GET|POST|\(custom\) POST|JSON) parameter '[^']+' does not seem to be injectable" "${logs[@]}" | wc -l)
findings=$(grep -h -E "identified the following injection point|' is vulnerable" "${logs[@]}" | wc -l || true)
errors500=$(grep -h -E "^500 \(Internal Server Error\)" "${logs[@]}" | wc -l || true)
codes=$(grep -h -E "^[0-9]{3} \(.*\) - [0-9]+ times" "${logs[@]}" | awk '{c[$1]+=$(NF-1)} END {for (k in c) printf "%s:%d ", k, c[k]}')
echo "sqlmap summary: $n targets, $tested parameters tested and not injectable, $requests requests," \
  "HTTP error codes ${codes:-none}, $findings findings, $(($(date +%s) - started)) s"
if [ "$findings" != 0 ] || [ "$errors500" != 0 ]; then
  grep -h -B2 -A12 -E "identified the following injection point|^500 \(Internal" "${logs[@]}" >&2 || true
  echo "sqlmap: FAILED (injectable parameter or HTTP 500)" >&2
  exit 1
fi
expected=$(($(npx tsx scripts/sqlmap-targets.ts "$work/data" "$base" | cut -f2 | tr ',' '\n' | wc -l) + 2))
if [ "$tested" -lt "$expected" ]; then
  echo "sqlmap: only $tested of $expected parameters were reported as tested" >&2
  exit 1
fi
echo "sqlmap: no injectable parameter"
