#!/usr/bin/env bash
# The whole test suite: type-check and build every workspace, then run every ava suite with a
# throwaway PostgreSQL cluster up (TEST_POSTGRES_URL), so database suites run on SQLite and PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -b
node reference-apps/support/dist/src/postgres/with-postgres-cli.js -- npx ava "$@"
