#!/usr/bin/env bash
# Prints the path of the Chromium the browser tests drive (Debian's `chromium` package), once a
# Chinese font is installed too (Debian's `fonts-noto-cjk`): without one, every Chinese character
# is drawn as a box, so screenshots and accessibility checks would not read the real text.
# CHROMIUM_PATH, when set, names another binary. What is missing is installed quietly when we are
# root with apt-get; otherwise the script says what to install (a missing Chromium exits non-zero,
# a missing font only warns: the font test then fails and says why).
set -euo pipefail

path="${CHROMIUM_PATH:-/usr/bin/chromium}"

usable() {
  [ -x "$1" ] && "$1" --version >/dev/null 2>&1
}

can_apt() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
}

apt_updated=0
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ "$apt_updated" = 0 ]; then
    apt-get update -qq >/dev/null || return 1
    apt_updated=1
  fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

has_chinese_font() {
  command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null)" ]
}

ensure_chinese_font() {
  has_chinese_font && return 0
  if can_apt; then
    echo "ensure-chromium: no Chinese font found; installing Debian's fonts-noto-cjk package…" >&2
    if apt_install fonts-noto-cjk && has_chinese_font; then
      return 0
    fi
    echo "ensure-chromium: installing fonts-noto-cjk with apt-get failed; run \`apt-get install fonts-noto-cjk\` and read its errors." >&2
    return 0
  fi
  echo "ensure-chromium: no Chinese font is installed (\`fc-list :lang=zh\` lists none): Chinese text is drawn as boxes." >&2
  echo "Install Debian's package as root: \`apt-get install fonts-noto-cjk\`" >&2
}

if usable "$path"; then
  ensure_chinese_font
  echo "$path"
  exit 0
fi

if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable Chromium." >&2
  echo "Unset CHROMIUM_PATH to use Debian's package, or point it at a working chromium binary." >&2
  exit 1
fi

if can_apt; then
  echo "ensure-chromium: $path is missing; installing Debian's chromium package…" >&2
  if apt_install chromium; then
    if usable "$path"; then
      ensure_chinese_font
      echo "$path"
      exit 0
    fi
  fi
  echo "ensure-chromium: installing chromium with apt-get failed; run \`apt-get install chromium\` and read its errors." >&2
  exit 1
fi

echo "ensure-chromium: Chromium not found at $path." >&2
echo "Install Debian's packages as root: \`apt-get install chromium fonts-noto-cjk\`" >&2
echo "(or set CHROMIUM_PATH to an existing Chromium binary)." >&2
exit 1
