#!/usr/bin/env bash
# Prints the path of the Chromium the browser tests drive (Debian's `chromium` package).
# CHROMIUM_PATH, when set, names another binary. When /usr/bin/chromium is missing and we are root
# with apt-get, Debian's package is installed quietly; otherwise the script says what to install
# and exits non-zero.
set -euo pipefail

path="${CHROMIUM_PATH:-/usr/bin/chromium}"

usable() {
  [ -x "$1" ] && "$1" --version >/dev/null 2>&1
}

if usable "$path"; then
  echo "$path"
  exit 0
fi

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium." >&2
  echo "Unset CHROMIUM_PATH to use Debian's package, or point it at a working chromium binary." >&2
  exit 1
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $path is missing; installing Debian's chromium package…" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
    if usable "$path"; then
      echo "$path"
      exit 0
    fi
  fi
  echo "ensure-chromium: installing chromium with apt-get failed; run \`apt-get install chromium\` and read its errors." >&2
  exit 1
fi

echo "ensure-chromium: Chromium not found at $path." >&2
echo "Install Debian's package as root: \`apt-get install chromium\`" >&2
echo "(or set CHROMIUM_PATH to an existing Chromium binary)." >&2
exit 1
