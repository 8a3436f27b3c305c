#!/usr/bin/env bash
# Installs what the PostgreSQL tests (internal/pgtest and its users) need:
# Debian's PostgreSQL server binaries (initdb, postgres) and pgvector:
# Debian's package where there is one, else built from Debian's source
# package; where neither can be (no apt-get), the exact vector fallback is
# what gets tested, and the script says so. Starts no server: each test
# binary starts its own throw-away cluster (internal/pgtest). Finds the
# binaries as internal/pgtest does: MEMORIA_PG_BIN, else pg_ctl or initdb
# on PATH, else the newest /usr/lib/postgresql/*/bin.
#
# Idempotent: with the binaries there, nothing is installed. Needs root (or
# sudo) and apt-get to install. Then run the tests with
#   MEMORIA_REQUIRE_POSTGRES=1 go test ./...
set -euo pipefail

has_server() { [[ -x $1/initdb && -x $1/postgres ]]; }

find_bin() {
	if [[ -n ${MEMORIA_PG_BIN:-} ]]; then
		has_server "$MEMORIA_PG_BIN" && echo "$MEMORIA_PG_BIN"
		return
	fi
	local name p d v best="" best_v=-1
	for name in pg_ctl initdb; do
		if p=$(command -v "$name") && d=$(dirname "$(readlink -f "$p")") && has_server "$d"; then
			echo "$d"
			return
		fi
	done
	for d in /usr/lib/postgresql/*/bin; do
		v=$(basename "$(dirname "$d")")
		if [[ $v =~ ^[0-9]+$ ]] && ((v > best_v)) && has_server "$d"; then
			best=$d best_v=$v
		fi
	done
	[[ -n $best ]] && echo "$best"
}

sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
updated=""
apt_update() {
	if [[ -z $updated ]]; then
		$sudo apt-get update -qq
		updated=1
	fi
}
# Debian's packages start their server on install unless policy-rc.d says
# no (Docker images ship one that does); the tests start their own.
no_services() {
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
		$sudo chmod 755 /usr/sbin/policy-rc.d
		trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
	fi
}

if ! bin=$(find_bin); then
	if [[ -n ${MEMORIA_PG_BIN:-} ]]; then
		echo "ci-postgres: MEMORIA_PG_BIN=$MEMORIA_PG_BIN holds no initdb and postgres" >&2
		exit 1
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "ci-postgres: no PostgreSQL and no apt-get; install PostgreSQL and set MEMORIA_PG_BIN to its bin directory" >&2
		exit 1
	fi
	no_services
	apt_update
	$sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
	if ! bin=$(find_bin); then
		echo "ci-postgres: postgresql installed, but no initdb and postgres found" >&2
		exit 1
	fi
	echo "ci-postgres: installed $("$bin/postgres" --version)"
else
	echo "ci-postgres: $("$bin/postgres" --version) in $bin"
fi

version=$("$bin/postgres" --version | sed -n 's/.*PostgreSQL) \([0-9]*\).*/\1/p')
share=$("$bin/pg_config" --sharedir 2>/dev/null || echo "/usr/share/postgresql/$version")
pkg=postgresql-$version-pgvector
if [[ -f $share/extension/vector.control ]]; then
	echo "pgvector: installed"
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "pgvector: not installed (no apt-get); the exact vector fallback will be tested"
	exit 0
fi
# A fresh image has no package lists: without them no package is "found".
if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
	apt_update
fi
candidate=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
if [[ -z $candidate || $candidate == "(none)" ]]; then
	# Debian 12 packages PostgreSQL 15 and not pgvector: build Debian's own
	# source of it (the 0.8.0 that Debian 13 packages), checked by sha256,
	# against the server's headers; without LLVM bitcode (clang is not
	# needed). About 20 s.
	src=http://deb.debian.org/debian/pool/main/p/pgvector/pgvector_0.8.0.orig.tar.gz
	sum=867a2c328d4928a5a9d6f052cd3bc78c7d60228a9b914ad32aa3db88e9de27b0
	no_services
	apt_update
	$sudo apt-get install -y -qq --no-install-recommends "postgresql-server-dev-$version" make gcc curl ca-certificates >/dev/null
	work=$(mktemp -d)
	curl -fsSL -o "$work/pgvector.tar.gz" "$src"
	echo "$sum  $work/pgvector.tar.gz" | sha256sum -c --quiet
	tar -xzf "$work/pgvector.tar.gz" -C "$work" --strip-components=1
	pg_config=/usr/lib/postgresql/$version/bin/pg_config
	make -C "$work" -s PG_CONFIG="$pg_config" with_llvm=no >/dev/null
	$sudo make -C "$work" -s PG_CONFIG="$pg_config" with_llvm=no install >/dev/null
	rm -rf "$work"
	if [[ ! -f $share/extension/vector.control ]]; then
		echo "ci-postgres: pgvector built, but $share/extension/vector.control is missing" >&2
		exit 1
	fi
	echo "pgvector: installed (built from Debian's source, pgvector 0.8.0)"
	exit 0
fi
no_services
apt_update # the lists may be older than the mirror's files
$sudo apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
if [[ ! -f $share/extension/vector.control ]]; then
	echo "ci-postgres: $pkg installed, but $share/extension/vector.control is missing" >&2
	exit 1
fi
echo "pgvector: installed ($pkg $candidate)"
