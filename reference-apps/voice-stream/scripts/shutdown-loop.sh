#!/usr/bin/env bash
# Runs the voice app's shutdown test (SIGTERM while sessions decode speech, test/process-lifecycle.test.ts)
# N times in a row and counts the runs that fail, keeping any core dump the server left.
#
#   bash reference-apps/voice-stream/scripts/shutdown-loop.sh [runs=50] [ava --match pattern]
#
# Run from anywhere after `npx tsc -b`; CPU heavy (12 decoders load per run): `nice -n 10` on a shared machine
# (ava's timeout is 5 min here: on a loaded machine one run took over the default 60 s).
# Core dumps: the kernel writes them to the server's working folder when /proc/sys/kernel/core_pattern is a plain
# file name ("core"); they are moved to $OUT/run-<n>/ with that run's output. With gdb installed, each core's
# backtrace of every thread is written next to it (backtrace.txt).
set -u
runs=${1:-50}
match=${2:-'SIGTERM while 12 sessions decode speech*'}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/voice-shutdown-loop-XXXXXX")}
mkdir -p "$out"
ulimit -c unlimited 2>/dev/null || echo "core dumps cannot be enabled (ulimit -c unlimited refused)"
cd "$root"
passed=0
failed=0
crashed=0
for run in $(seq 1 "$runs"); do
  log="$out/run-$run.log"
  if npx ava --timeout 5m reference-apps/voice-stream/dist/test/process-lifecycle.test.js --match "$match" >"$log" 2>&1; then
    passed=$((passed + 1))
    rm -f "$log"
    status=passed
  else
    failed=$((failed + 1))
    status=FAILED
    mkdir -p "$out/run-$run"
    mv "$log" "$out/run-$run/"
    for core in "$root"/core "$root"/core.[0-9]*; do
      [ -f "$core" ] || continue
      mv "$core" "$out/run-$run/"
      if command -v gdb >/dev/null; then
        gdb -q -batch -ex 'thread apply all bt 30' "$(command -v node)" "$out/run-$run/$(basename "$core")" \
          >"$out/run-$run/backtrace.txt" 2>&1
      fi
    done
    if grep -q -E 'SIGSEGV|SIGABRT|SIGBUS|SIGILL|core dumped' "$out/run-$run/run-$run.log" || ls "$out/run-$run"/core* >/dev/null 2>&1; then
      crashed=$((crashed + 1))
      status="FAILED (crash)"
    fi
    grep -m3 -E 'SIGSEGV|SIGABRT|SIGBUS|✘' "$out/run-$run/run-$run.log" | sed 's/^/    /'
  fi
  echo "run $run/$runs: $status (passed $passed, failed $failed, crashed $crashed)"
done
echo "shutdown test: $passed of $runs runs passed, $failed failed ($crashed of them crashed: a signal or a core); failures and cores in $out"
[ "$failed" -eq 0 ]
