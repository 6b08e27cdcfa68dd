#!/usr/bin/env bash
# Makes sure OpenStack Swift is there for the tests of the s3 driver on Swift's S3 API, the second
# S3 peer beside s3rver (tests/helpers/swiftS3.ts starts it per test file, on loopback). Swift comes
# from Debian's python3-swift, for Debian's /usr/bin/python3 (SWIFT_PYTHON names another). When it
# is missing and we are root with apt-get, the package is installed quietly; otherwise the script
# says what to install and exits 3.
set -euo pipefail

python="${SWIFT_PYTHON:-/usr/bin/python3}"

usable() {
  [ -x "$python" ] && "$python" -c 'import swift.common.middleware.s3api' >/dev/null 2>&1
}

usable && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-swift: OpenStack Swift is missing; installing Debian's python3-swift…" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends python3-swift >/dev/null; then
    usable && exit 0
  fi
  echo "ensure-swift: installing python3-swift with apt-get failed; run \`apt-get install python3-swift\` and read its errors." >&2
  exit 3
fi

echo "ensure-swift: OpenStack Swift not found for $python." >&2
echo "Install Debian's package as root: \`apt-get install python3-swift\` (or set SWIFT_PYTHON to a python3 that imports swift)." >&2
exit 3
