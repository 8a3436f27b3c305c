#!/usr/bin/env python3
"""The JSON side of scripts/e5-goldens.sh, so that the C driver reads and writes
only raw records (see driver.c for their layout). Standard library only.

  records.py encode TEXTS.jsonl > records
  records.py decode TEXTS.jsonl RESULTS OUT.jsonl

Text i (counting from 0) is embedded as a query when i is odd, as a passage
when it is even. decode writes one line per text,
  {"lang", "text", "mode", "ids", ["windows",] "vec"}
where vec is base64 of 384 little-endian IEEE 754 binary16 values (rounded to
nearest, ties to even) and windows (present only when above 1) is the number
of 512-token windows the engine averaged. It checks what it writes and exits
non-zero on any failure."""
import base64
import collections
import json
import math
import struct
import sys

DIM = 384
VOCAB = 250002  # pieces in the model's SentencePiece vocabulary
BOS, EOS = 0, 2


def read_texts(path):
    texts = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            obj = json.loads(line)
            lang, text = obj["lang"], obj["text"]
            if not isinstance(lang, str) or not isinstance(text, str):
                sys.exit(f"{path}:{n}: lang and text must be strings")
            if "\0" in text:
                sys.exit(f"{path}:{n}: a text cannot hold NUL (the engine takes C strings)")
            texts.append((lang, text))
    return texts


def is_query(i):
    return i % 2 == 1


def encode(path):
    out = sys.stdout.buffer
    for i, (_, text) in enumerate(read_texts(path)):
        b = text.encode("utf-8")
        out.write(struct.pack("<BI", 1 if is_query(i) else 0, len(b)))
        out.write(b)
    out.flush()


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f16_bits(x):
    """float32 value x -> IEEE binary16 bits, rounded to nearest, ties to even."""
    u = f32_bits(x)
    sign = (u >> 16) & 0x8000
    exp = (u >> 23) & 0xFF
    man = u & 0x7FFFFF
    if exp == 0xFF:  # inf, nan
        return sign | 0x7C00 | (0x200 if man else 0)
    e = exp - 127 + 15  # rebiased exponent
    if e >= 0x1F:
        return sign | 0x7C00  # overflow -> inf
    if e <= 0:  # subnormal (or zero) in binary16
        if e < -10:
            return sign  # below half the smallest subnormal: zero
        man |= 0x800000  # implicit 1
        shift = 14 - e  # value / 2**-24 (the subnormal step) = man >> (14 - e)
        half = 1 << (shift - 1)
        r = man >> shift
        rem = man & ((1 << shift) - 1)
        if rem > half or (rem == half and (r & 1)):
            r += 1
        return sign | r  # a carry into bit 10 gives the smallest normal, correctly
    r = man >> 13
    rem = man & 0x1FFF
    if rem > 0x1000 or (rem == 0x1000 and (r & 1)):
        r += 1
        if r == 0x400:  # mantissa carry
            r = 0
            e += 1
            if e >= 0x1F:
                return sign | 0x7C00
    return sign | (e << 10) | r


def f16_value(h):
    return struct.unpack("<e", struct.pack("<H", h))[0]


def self_test():
    # values around rounding ties, subnormals and the overflow edge
    probes = [0.0, -0.0, 1.0, -1.0, 65504.0, 65520.0, 1e-8, 2.0**-24, 2.0**-25,
              3 * 2.0**-26, 2.0**-14, 2.0**-14 * (1 - 2.0**-11), 1 + 2.0**-11,
              1 + 3 * 2.0**-11, 0.1, 1 / 3, -0.0123456, 6.1e-5, 5.9e-8]
    for x in probes:
        x = struct.unpack("<f", struct.pack("<f", x))[0]
        try:
            want = struct.unpack("<H", struct.pack("<e", x))[0]
        except OverflowError:
            want = 0x7C00 | (0x8000 if x < 0 else 0)
        got = f16_bits(x)
        if got != want:
            sys.exit(f"f16 self-test: {x!r} -> {got:#06x}, struct gives {want:#06x}")


def decode(texts_path, results_path, out_path):
    self_test()
    texts = read_texts(texts_path)
    with open(results_path, "rb") as f:
        data = f.read()
    pos = 0

    def take(fmt):
        nonlocal pos
        size = struct.calcsize(fmt)
        if pos + size > len(data):
            sys.exit("decode: the driver's output is truncated")
        v = struct.unpack_from(fmt, data, pos)
        pos += size
        return v

    per_lang = collections.Counter()
    max_ids, worst_rel, worst_cos = 0, 0.0, 1.0
    lines = []
    for i, (lang, text) in enumerate(texts):
        (n,) = take("<i")
        ids = list(take(f"<{n}i"))
        (windows,) = take("<i")
        vec = take(f"<{DIM}f")
        where = f"text {i} ({lang} {text[:30]!r})"
        if n < 2 or ids[0] != BOS or ids[-1] != EOS:
            sys.exit(f"{where}: ids do not run <s> … </s>: {ids[:5]}…{ids[-3:]}")
        if any(not 0 <= t < VOCAB for t in ids):
            sys.exit(f"{where}: an id outside the vocabulary")
        if windows != max(1, -(-(n - 2) // 510)):
            sys.exit(f"{where}: {windows} windows for {n - 2} content ids")
        if not all(math.isfinite(x) for x in vec):
            sys.exit(f"{where}: the vector is not finite")
        norm = math.sqrt(sum(x * x for x in vec))
        if abs(norm - 1) > 1e-4:
            sys.exit(f"{where}: vector norm {norm}")
        bits = [f16_bits(x) for x in vec]
        back = [f16_value(h) for h in bits]
        for x, h, y in zip(vec, bits, back):
            if h != struct.unpack("<H", struct.pack("<e", x))[0]:
                sys.exit(f"{where}: f16 of {x!r} disagrees with struct")
            err = abs(y - x)
            if err > 1e-3 * abs(x) + 6e-8:  # 6e-8: binary16's subnormal step
                sys.exit(f"{where}: f16 round trip {x!r} -> {y!r}")
            if abs(x) > 1e-4:
                worst_rel = max(worst_rel, err / abs(x))
        dot = sum(x * y for x, y in zip(vec, back))
        cos = dot / (norm * math.sqrt(sum(y * y for y in back)))
        worst_cos = min(worst_cos, cos)
        obj = {"lang": lang, "text": text, "mode": "query" if is_query(i) else "passage",
               "ids": ids}
        if windows > 1:
            obj["windows"] = windows
        obj["vec"] = base64.b64encode(struct.pack(f"<{DIM}H", *bits)).decode("ascii")
        lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        per_lang[lang] += 1
        max_ids = max(max_ids, n)
    if pos != len(data):
        sys.exit("decode: the driver wrote more records than there are texts")
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    long = sum(1 for l in lines if '"windows":' in l)
    print(f"e5-goldens: {len(lines)} texts ({', '.join(f'{k} {v}' for k, v in per_lang.items())}); "
          f"longest {max_ids} ids, {long} over one window; "
          f"float16: worst relative error {worst_rel:.2e}, worst cosine {worst_cos:.8f}",
          file=sys.stderr)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "encode":
        encode(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "decode":
        decode(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
