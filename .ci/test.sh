#!/usr/bin/env bash
# The whole test suite: type-check and build every workspace, then run every ava suite with a
# throwaway PostgreSQL cluster up (TEST_POSTGRES_URL), so database suites run on SQLite and PostgreSQL,
# on this machine's Node (20); then the Node matrix (.ci/node-matrix.sh): the framework's suite and the
# booking API's on Node 22 and 24 with uWebSockets.js v20.57 in a Debian 13 root file system.
# With arguments (ava files or flags) it runs just those, on this machine's Node, and no matrix.
set -euo pipefail
cd "$(dirname "$0")/.."
# The voice app's acoustic model adapted to synthetic voices (about two minutes of one core, once; nothing when up to
# date) is made while the other workspaces compile, each on its own core: the voice app is built first for it.
# Lint and format first: a second, and it names every file that breaks the rules (biome.json).
npx biome ci .
npx tsc -b reference-apps/voice-stream
npm run adapt -w voice-stream -- --if-stale &
adapt=$!
npx tsc -b
wait "$adapt"
# The benchmarks' peers that npm cannot install with the workspace (hyper-express, ultimate-express: see
# benchmarks/src/setup/peers.ts), so the TechEmpower verifier checks them too: a few seconds, nothing when installed.
node benchmarks/dist/src/run.js --setup
if [ $# -eq 0 ]; then
  # The matrix's cache (a Debian root file system, Node builds: a few minutes of downloads on a fresh machine) is
  # filled while the Node 20 suite runs; its output is kept for when it fails.
  prepare_log=$(mktemp)
  bash .ci/node-matrix.sh --prepare >"$prepare_log" 2>&1 &
  prepare=$!
fi
# A test worker that never exits (a teardown that left a server running) would hold CI until its own time limit:
# the run is stopped after 40 minutes instead, and says so (a whole run takes about 12 on two cores).
# Two test files per core: files spend about a third of their time waiting (servers, timers, child processes, the
# database), which one per core leaves idle (the Node 20 suite: 12 min 45 s at ava's default, 10 min 13 s so).
concurrency=$(($(nproc) * 2))
status=0
node reference-apps/support/dist/src/postgres/with-postgres-cli.js -- timeout --kill-after=30s 40m npx ava --concurrency "$concurrency" "$@" || status=$?
if [ "$status" -eq 124 ]; then echo "test: ava did not finish within 40 minutes (a worker that does not exit?)" >&2; fi
[ "$status" -eq 0 ] || exit "$status"
if [ $# -eq 0 ]; then
  if ! wait "$prepare"; then
    cat "$prepare_log" >&2
    echo "test: preparing the Node matrix failed" >&2
    exit 1
  fi
  bash .ci/node-matrix.sh
fi
