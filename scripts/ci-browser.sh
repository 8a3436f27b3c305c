#!/bin/sh
# Installs Debian's Chromium for the page's browser test (web/browser_test.go),
# which fails without it when MEMORIA_REQUIRE_BROWSER=1. Idempotent: nothing
# is done when /usr/bin/chromium is there already. Needs root (or sudo) and
# apt-get.
set -eu

if [ -x /usr/bin/chromium ]; then
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "ci-browser: apt-get not found; install Chromium as /usr/bin/chromium by hand" >&2
	exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
if [ ! -x /usr/bin/chromium ]; then
	echo "ci-browser: chromium installed, but /usr/bin/chromium is missing" >&2
	exit 1
fi
echo "ci-browser: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
