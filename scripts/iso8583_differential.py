#!/usr/bin/env python3
"""Differential test of the ISO8583 codec (through `tap iso8583 batch`) against pyiso8583 4.0.1.

For each specification (pyiso8583's `default` and `default_ascii`, the project's `contactless`, and `packed`, a
dialect defined here that exercises binary MTI, BCD/binary/EBCDIC length prefixes, packed fields with left and right
pads, EBCDIC text and an EBCDIC secondary bitmap), generates random valid messages (default 1,000 per spec; the seed is
printed, ISO_SEED repeats a run, ISO_CASES changes the count) and checks, byte for byte:
  - pyiso8583 -> ours: our decoder reads pyiso8583's bytes to the same fields, and re-encodes them to the same bytes;
  - ours -> pyiso8583: our encoder turns the same fields into the same bytes, which pyiso8583 decodes to the fields;
  - rejections: every message cut short is rejected by both.
The built-in specs are first compared with pyiso8583's dictionaries (field 65, pyiso8583's tertiary bitmap, is
deliberately absent from ours). Prints counts and rates; exits non-zero on any mismatch.

Usage: $VENV/bin/python scripts/iso8583_differential.py   (environment: TAP, ISO_SEED, ISO_CASES)
"""

import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time

import iso8583
from iso8583 import specs as pyspecs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAP = os.environ.get("TAP", os.path.join(ROOT, ".build", "release", "tap"))

# The `packed` dialect; Tests/ISO8583Tests/TestSpecifications.swift defines the same one for the unit tests.
PACKED = {
    "name": "packed",
    "h": {"data_enc": "ascii", "len_enc": "ascii", "len_type": 0, "max_len": 0, "desc": "Message Header"},
    "t": {"data_enc": "b", "len_enc": "ascii", "len_type": 0, "max_len": 2, "desc": "Message Type"},
    "p": {"data_enc": "b", "len_enc": "ascii", "len_type": 0, "max_len": 8, "desc": "Bitmap, Primary"},
    "1": {"data_enc": "cp500", "len_enc": "ascii", "len_type": 0, "max_len": 16, "desc": "Bitmap, Secondary"},
    "2": {"data_enc": "b", "len_enc": "bcd", "len_type": 1, "max_len": 19, "len_count": "nibbles", "right_pad": "F",
          "desc": "PAN", "numeric": True},
    "3": {"data_enc": "b", "len_enc": "ascii", "len_type": 0, "max_len": 6, "len_count": "nibbles",
          "desc": "Processing code", "numeric": True},
    "4": {"data_enc": "cp500", "len_enc": "ascii", "len_type": 0, "max_len": 12, "desc": "Amount", "numeric": True},
    "11": {"data_enc": "b", "len_enc": "ascii", "len_type": 0, "max_len": 5, "len_count": "nibbles", "left_pad": "0",
           "desc": "STAN", "numeric": True},
    "35": {"data_enc": "b", "len_enc": "b", "len_type": 1, "max_len": 37, "len_count": "nibbles", "right_pad": "F",
           "desc": "Track 2"},
    "41": {"data_enc": "cp500", "len_enc": "ascii", "len_type": 0, "max_len": 8, "desc": "Terminal"},
    "48": {"data_enc": "cp500", "len_enc": "cp500", "len_type": 3, "max_len": 999, "desc": "Additional data"},
    "55": {"data_enc": "b", "len_enc": "b", "len_type": 2, "max_len": 999, "desc": "ICC data"},
    "60": {"data_enc": "ascii", "len_enc": "ascii", "len_type": 4, "max_len": 9999, "desc": "Private"},
    "70": {"data_enc": "ascii", "len_enc": "ascii", "len_type": 0, "max_len": 3, "desc": "Network management code",
           "numeric": True},
    "90": {"data_enc": "ascii", "len_enc": "bcd", "len_type": 2, "max_len": 42, "desc": "Original data"},
}

MTIS = ["0100", "0110", "0200", "0210", "0400", "0410", "0420", "0430", "0800", "0810"]
SPEC_KEYS = ("data_enc", "len_enc", "len_type", "max_len", "desc")


def tap_json(args, stdin=None):
    result = subprocess.run([TAP, "iso8583", "batch", *args], input=stdin, capture_output=True, encoding="utf-8")
    if result.returncode != 0:
        sys.exit(f"FAIL: tap iso8583 batch {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def compare_builtin(name, ours):
    """Our built-in spec against pyiso8583's dictionary (all attributes pyiso8583 reads)."""
    theirs = getattr(pyspecs, name)
    problems = []
    for key, field in theirs.items():
        if key == "65":
            continue
        mine = ours.get(key)
        if mine is None:
            problems.append(f"{name}: field {key} missing")
            continue
        for attribute in SPEC_KEYS:
            if key in ("h", "t", "p", "1") and attribute == "desc":
                continue
            if key == "h" and attribute != "max_len":
                continue
            if mine.get(attribute) != field.get(attribute):
                problems.append(f"{name}: field {key} {attribute}: ours {mine.get(attribute)!r}, "
                                f"pyiso8583 {field.get(attribute)!r}")
    extra = set(ours) - set(theirs) - {"name"}
    if extra:
        problems.append(f"{name}: fields pyiso8583 lacks: {sorted(extra)}")
    return problems


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def length(self, field):
        if field["len_type"] == 0:
            return field["max_len"]
        cap = field["max_len"]
        # Mostly short values (speed), sometimes the maximum or empty.
        choice = self.r.random()
        if choice < 0.1:
            return cap
        if choice < 0.15:
            return 0
        return self.r.randint(0, min(cap, 40))

    def value(self, field):
        n = self.length(field)
        numeric = field.get("numeric", False)
        if field["data_enc"] == "b":
            if field.get("len_count", "bytes") == "nibbles":
                alphabet = "0123456789" if numeric else "0123456789D"
                return "".join(self.r.choice(alphabet) for _ in range(n))
            return self.r.randbytes(n).hex().upper()
        if numeric:
            return "".join(self.r.choice("0123456789") for _ in range(n))
        if field["data_enc"] == "ascii":
            return "".join(chr(self.r.randint(0x20, 0x7E) if self.r.random() < 0.95 else self.r.randint(1, 0x7F))
                           for _ in range(n))
        return "".join(chr(self.r.randint(1, 0xFF)) for _ in range(n))

    def message(self, spec):
        numbers = [int(k) for k in spec if k.isdigit() and k not in ("1", "65")]
        density = self.r.choice([0.05, 0.15, 0.4, 1.0])
        chosen = [k for k in numbers if self.r.random() < density] or [self.r.choice(numbers)]
        fields = {"t": self.r.choice(MTIS) if self.r.random() < 0.8 else "%04d" % self.r.randint(0, 9999)}
        for k in chosen:
            fields[str(k)] = self.value(spec[str(k)])
        return fields


def with_numeric(spec, ours):
    """pyiso8583's dictionary plus our numeric marks (which pyiso8583 ignores), so generated values respect them."""
    return {k: dict(v, numeric=ours.get(k, {}).get("numeric", False)) for k, v in spec.items()}


def without_bitmaps(fields):
    return {k: v for k, v in fields.items() if k not in ("p", "1", "h")}


def run_spec(name, spec, tap_args, gen, cases):
    messages = [gen.message(spec) for _ in range(cases)]
    started = time.perf_counter()
    encoded = [bytes(iso8583.encode(dict(m), spec)[0]) for m in messages]
    decoded = [without_bitmaps(iso8583.decode(raw, spec)[0]) for raw in encoded]
    python_seconds = time.perf_counter() - started
    cuts = []
    for raw in encoded:
        cut = raw[: gen.r.randrange(len(raw))]
        try:
            iso8583.decode(cut, spec)
            cuts.append((cut, False))
        except iso8583.DecodeError:
            cuts.append((cut, True))

    lines = []
    for m, raw in zip(messages, encoded):
        lines.append(json.dumps({"encode": m}))
        lines.append(json.dumps({"decode": raw.hex()}))
    for cut, _ in cuts:
        lines.append(json.dumps({"decode": cut.hex()}))
    started = time.perf_counter()
    # split("\n"), not splitlines(): field text may hold U+0085 or U+001C, which splitlines() also breaks at.
    answers = [json.loads(line) for line in tap_json(tap_args, "\n".join(lines) + "\n").split("\n") if line]
    swift_seconds = time.perf_counter() - started
    if len(answers) != len(lines):
        sys.exit(f"FAIL: {name}: {len(lines)} requests, {len(answers)} answers")

    mismatches = []
    failed = set()
    for i, (m, raw, theirs) in enumerate(zip(messages, encoded, decoded)):
        before = len(mismatches)
        enc, dec = answers[2 * i], answers[2 * i + 1]
        if enc.get("hex", "").upper() != raw.hex().upper():
            mismatches.append(("ours encode != pyiso8583 encode", m, raw.hex(), enc))
        else:
            back = without_bitmaps(iso8583.decode(bytes.fromhex(enc["hex"]), spec)[0])
            if back != without_bitmaps(m):
                mismatches.append(("pyiso8583 decode of our bytes != fields", m, raw.hex(), back))
        if dec.get("fields") != theirs:
            mismatches.append(("ours decode != pyiso8583 decode", m, raw.hex(), dec))
        elif dec.get("hex", "").upper() != raw.hex().upper():
            mismatches.append(("ours re-encode != pyiso8583 bytes", m, raw.hex(), dec))
        if len(mismatches) > before:
            failed.add(i)
    rejected = 0
    for j, (cut, python_rejects) in enumerate(cuts):
        answer = answers[2 * len(messages) + j]
        ours_rejects = "error" in answer
        rejected += ours_rejects and python_rejects
        if ours_rejects != python_rejects:
            mismatches.append(("truncated message: disagree on rejection", None, cut.hex(), answer))

    print(f"{name:14} {cases - len(failed)}/{cases} messages byte-identical both ways; "
          f"{rejected}/{len(cuts)} truncations rejected by both; "
          f"pyiso8583 {2 * cases / python_seconds:,.0f} codec ops/s, tap batch {len(lines) / swift_seconds:,.0f} "
          f"requests/s (JSON and process start included)")
    for kind, m, hexed, detail in mismatches[:5]:
        print(f"  MISMATCH {kind}\n    fields: {m}\n    bytes:  {hexed}\n    got:    {detail}")
    return len(mismatches)


def main():
    seed = int(os.environ.get("ISO_SEED") or secrets.randbits(32))
    cases = int(os.environ.get("ISO_CASES", "1000"))
    print(f"seed {seed} (rerun with ISO_SEED={seed}); {cases} messages per spec; pyiso8583 {iso8583.__version__}")
    if not os.access(TAP, os.X_OK):
        sys.exit(f"FAIL: {TAP} is not an executable (build it: swift build -c release --product tap)")

    problems = []
    dumped = {}
    for name in ("default", "default_ascii", "contactless"):
        dumped[name] = json.loads(tap_json(["--spec", name, "--dump-spec"]))
    for name in ("default", "default_ascii"):
        problems += compare_builtin(name, dumped[name])
    for problem in problems:
        print("  SPEC MISMATCH", problem)

    gen = Gen(seed)
    failures = len(problems)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(PACKED, handle)
        packed_path = handle.name
    try:
        for name, spec, args in [
            ("default", with_numeric(pyspecs.default, dumped["default"]), ["--spec", "default"]),
            ("default_ascii", with_numeric(pyspecs.default_ascii, dumped["default_ascii"]), ["--spec", "default_ascii"]),
            ("contactless", dumped["contactless"], ["--spec", "contactless"]),
            ("packed", PACKED, ["--spec-file", packed_path]),
        ]:
            # pyiso8583 would read bit 65 as a tertiary bitmap; neither side is asked to produce it.
            spec = {k: v for k, v in spec.items() if k != "65"}
            failures += run_spec(name, spec, args, gen, cases)
    finally:
        os.unlink(packed_path)
    if failures:
        sys.exit(f"FAIL: {failures} mismatches (seed {seed})")
    print("OK: zero mismatches")


if __name__ == "__main__":
    main()
