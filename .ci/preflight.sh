#!/usr/bin/env bash
# Preflight: makes sure the Debian packages the reference apps (and their tests) need are present.
# As root it installs what is missing with apt-get; otherwise it stops and prints the exact command to run.
#   preflight.sh apps   packages the reference apps need at run time
#   preflight.sh test   those plus what the test suite needs (PostgreSQL, Chromium, wrk, sox, nginx; mmdebstrap for the Node matrix)
set -euo pipefail
mode="${1:-apps}"

apps_packages=(
  ffmpeg
  libpocketsphinx3 pocketsphinx-en-us
  sphinxtrain sphinxbase-utils pocketsphinx
  apertium apertium-eng-spa apertium-eng-cat apertium-en-gl apertium-fr-es apertium-es-pt apertium-spa-ita
  espeak-ng flite
)
test_packages=(postgresql chromium wrk sox mmdebstrap nginx)

wanted=("${apps_packages[@]}")
[ "$mode" = "test" ] && wanted+=("${test_packages[@]}")

missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

command="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "preflight: missing Debian packages: ${missing[*]}" >&2
  echo "preflight: run this as root, then try again:" >&2
  echo "  sudo sh -c '$command'" >&2
  exit 1
fi

echo "preflight: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "preflight: done" >&2
