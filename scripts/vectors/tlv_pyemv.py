#!/usr/bin/env python3
"""Writes Tests/EMVTests/Vectors/tlv-pyemv-differential.json: random BER-TLV trees decoded by pyemv.

Run with the oracle venv (pyemv 1.5.0):
    .venv/bin/python scripts/vectors/tlv_pyemv.py [--seed N] [--count N]

Every vector's "tree" is what pyemv.tlv.decode returned, never what our Swift parser returned, so the Swift
test is a differential check against an independent implementation:
- "wellFormed": random trees, encoded by pyemv.tlv.encode (minimal lengths, "hex") and by this script with
  random non-minimal length forms ("lenientHex", 81 xx / 82 00 xx, which pyemv also decodes).
- "mutated": a well-formed encoding with one random mutation (byte flip, truncation, insertion, deletion,
  length rewrite); "tree" is pyemv's decoding or null when pyemv raised.
Trees are lists that keep pyemv's order: [tag, "VALUEHEX"] for primitive objects, [tag, [children]] for
constructed ones. pyemv decodes into dicts, so a repeated tag at one level keeps its first position and its last
value; the generator never repeats a tag within one level, mutated inputs may.
"""

import argparse
import json
import random

import pyemv
from pyemv import tlv


def random_tag(rng: random.Random, constructed: bool) -> str:
    cls = rng.choice([0x00, 0x40, 0x80, 0xC0])
    form = 0x20 if constructed else 0x00
    size = rng.choices([1, 2, 3], weights=[4, 5, 1])[0]
    if size == 1:
        number = rng.randrange(1, 31)  # 0 would be padding in EMV
        return f"{cls | form | number:02X}"
    first = cls | form | 0x1F
    if size == 2:
        second = rng.randrange(0x01, 0x80)
        return f"{first:02X}{second:02X}"
    second = rng.randrange(0x81, 0xFF)  # 0xFF after an 0xFF first byte reads as padding
    third = rng.randrange(0x00, 0x80)
    return f"{first:02X}{second:02X}{third:02X}"


def random_value(rng: random.Random) -> bytes:
    size = rng.choices(
        [rng.randrange(0, 12), rng.randrange(12, 128), rng.randrange(128, 300)], weights=[85, 12, 3]
    )[0]
    return bytes(rng.randrange(256) for _ in range(size))


def random_tree(rng: random.Random, depth: int, budget: list) -> dict:
    tree = {}
    for _ in range(rng.randrange(1, 6)):
        if budget[0] <= 0:
            break
        constructed = depth < 4 and rng.random() < 0.3
        tag = random_tag(rng, constructed)
        if tag in tree:
            continue
        if constructed:
            tree[tag] = random_tree(rng, depth + 1, budget)
        else:
            value = random_value(rng)
            budget[0] -= len(value) + 3
            tree[tag] = value
    return tree


def length_bytes(rng: random.Random, length: int) -> bytes:
    """A length field, sometimes in a longer form than needed (BER allows it; EMV cards send 81 xx)."""
    forms = []
    if length < 0x80:
        forms.append(bytes([length]))
    if length < 0x100:
        forms.append(bytes([0x81, length]))
    forms.append(bytes([0x82, length >> 8, length & 0xFF]))
    return rng.choice(forms)


def lenient_encode(rng: random.Random, tree: dict) -> bytes:
    out = bytearray()
    for tag, value in tree.items():
        body = lenient_encode(rng, value) if isinstance(value, dict) else value
        out += bytes.fromhex(tag) + length_bytes(rng, len(body)) + body
    return bytes(out)


def as_list(decoded: dict) -> list:
    return [[tag, as_list(value) if isinstance(value, dict) else value] for tag, value in decoded.items()]


def pyemv_tree(data: bytes):
    try:
        return as_list(tlv.decode(data, convert=lambda t, v: bytes(v).hex().upper()))
    except Exception:  # pyemv raises DecodeError, and IndexError/ValueError on some inputs
        return None


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(5)
    if kind == 0 and data:  # flip one byte
        data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 1 and data:  # truncate
        del data[rng.randrange(len(data)):]
    elif kind == 2:  # insert a byte
        data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
    elif kind == 3 and data:  # delete a byte
        del data[rng.randrange(len(data))]
    elif data:  # rewrite a byte with a length-ish value
        data[rng.randrange(len(data))] = rng.choice([0x00, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0xFF])
    return bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=20240517)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--out", default="Tests/EMVTests/Vectors/tlv-pyemv-differential.json")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    well_formed, mutated = [], []
    while len(well_formed) < args.count:
        tree = random_tree(rng, 0, [rng.choice([25, 60, 200])])
        if not tree:
            continue
        encoded = tlv.encode(tree)
        lenient = lenient_encode(rng, tree)
        decoded = pyemv_tree(encoded)
        assert decoded is not None and decoded == pyemv_tree(lenient), "pyemv disagrees with itself"
        well_formed.append({"hex": encoded.hex().upper(), "lenientHex": lenient.hex().upper(), "tree": decoded})
        broken = mutate(rng, encoded)
        mutated.append({"hex": broken.hex().upper(), "tree": pyemv_tree(broken)})

    document = {
        "provenance": (
            f"Generated by scripts/vectors/tlv_pyemv.py --seed {args.seed} --count {args.count} with pyemv "
            f"{pyemv.__version__} (PyPI): trees are pyemv.tlv.decode output, 'hex' is pyemv.tlv.encode output; "
            "'lenientHex' re-encodes the same tree with random non-minimal length forms; 'mutated' entries hold "
            "one random mutation of a well-formed encoding and pyemv's decoding of it (null when pyemv raised)."
        ),
        "seed": args.seed,
        "wellFormed": well_formed,
        "mutated": mutated,
    }
    with open(args.out, "w") as f:
        json.dump(document, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
