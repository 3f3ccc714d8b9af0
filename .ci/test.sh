#!/usr/bin/env bash
# The whole test suite: type-check and build every workspace, then run every ava suite.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -b
npx ava "$@"
