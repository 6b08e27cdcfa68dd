#!/usr/bin/env bash
# The README's test command: every unit and API test on the embedded SQLite (local storage and two
# S3-protocol servers on loopback, s3rver and OpenStack Swift's S3 API), the browser tests in
# Debian's Chromium (installed when missing and we are root), then the API suite again on a
# throwaway PostgreSQL cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

# ffmpeg makes the video posters; the tests of posters need it. Install Debian's when we can.
if ! command -v ffmpeg >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "ffmpeg is missing: installing Debian's ffmpeg…"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null) || echo "could not install ffmpeg: poster tests will be skipped" >&2
fi

# OpenStack Swift's S3 API is the s3 driver's second S3 peer beside s3rver: it has ListParts and
# AbortMultipartUpload and verifies signatures. Install Debian's python3-swift when we can; the
# tests start it themselves. REQUIRE_S3_PEER=1 (CI) makes a missing Swift a failure, here and there.
if ! scripts/ensure-swift.sh; then
  if [ "${REQUIRE_S3_PEER:-0}" = 1 ]; then
    echo "Swift's S3 API is missing and REQUIRE_S3_PEER=1: failing." >&2
    exit 1
  fi
  echo "S3 tests on Swift's S3 API SKIPPED (s3rver only): see the message above for what to install." >&2
fi

# The API tests of pages rendered by the server need the built app too (tests/api/pageRender.test.ts).
echo "== build of the admin app and its server render"
npm run build

echo "== unit and API tests (SQLite)"
npx vitest run --project unit --project api

echo "== sqlmap against a server of its own (REQUIRE_SQLMAP=1: missing sqlmap is a failure)"
bash scripts/sqlmap.sh

echo "== browser tests (Chromium, built app)"
CHROMIUM_PATH="$(scripts/ensure-chromium.sh)"
export CHROMIUM_PATH
npx vitest run --project browser

echo "== API tests (PostgreSQL)"
cluster=$(mktemp -d /tmp/zhishi-pg-XXXXXX)
trap 'scripts/pg-cluster.sh stop "$cluster"' EXIT
if url=$(scripts/pg-cluster.sh start "$cluster"); then
  # Fewer random cases per call than on SQLite: the same routes and checks, the database's own
  # answers to them (tests/api/fuzz.test.ts; FUZZ_RUNS).
  TEST_DATABASE_URL="$url" FUZZ_RUNS="${FUZZ_RUNS:-10}" npx vitest run --project api tests/api
else
  status=$?
  if [ "${REQUIRE_POSTGRES:-0}" = 1 ]; then
    echo "PostgreSQL suite could not start (exit $status) and REQUIRE_POSTGRES=1: failing." >&2
    exit 1
  fi
  echo "PostgreSQL suite SKIPPED: see the message above for what to install." >&2
fi
