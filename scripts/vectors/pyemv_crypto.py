#!/usr/bin/env python3
"""Writes the pyemv 1.5.0 test vectors for EMV key derivation, cryptograms, ARPC and CVC3.

Run with the oracle venv:  <venv>/bin/python scripts/vectors/pyemv_crypto.py [seed]
Output: Tests/EMVTests/Vectors/pyemv-{kd,ac,cvn,cvv}.json. Each case names the pyemv function (`op`),
its arguments by pyemv's parameter names (bytes as upper-case hex, None left out), and either the
`result` pyemv returned (bytes as hex, CVC3 as its decimal text) or the `error` class pyemv raised.
"""
import json
import os
import random
import sys
import warnings

import pyemv
from pyemv import ac, cvn, cvv, kd

warnings.simplefilter("ignore")  # cryptography's TripleDES deprecation notices

SEED = int(sys.argv[1]) if len(sys.argv) > 1 else 20240602
rng = random.Random(SEED)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "Tests", "EMVTests", "Vectors")


def rbytes(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def digits(n, alphabet="0123456789"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def encode(value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex().upper()
    if isinstance(value, ac.PaddingType):
        return value.name
    return value


def run(cases, op, fn, **args):
    case = {"op": op, "args": {k: encode(v) for k, v in args.items() if v is not None}}
    try:
        case["result"] = encode(fn(**args))
    except Exception as error:  # the test only needs to know pyemv refused
        case["error"] = type(error).__name__
    cases.append(case)


def write(name, functions, cases):
    document = {
        "provenance": f"generated with pyemv {pyemv.__version__} {', '.join(functions)} "
        f"by scripts/vectors/pyemv_crypto.py (seed {SEED})",
        "cases": cases,
    }
    with open(os.path.join(OUT, name), "w") as file:  # one case per line keeps diffs readable
        file.write('{"provenance": ' + json.dumps(document["provenance"]) + ',\n "cases": [\n')
        file.write(",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in cases))
        file.write("\n ]}\n")
    print(f"{name}: {len(cases)} cases")


def issuer_key():
    return rbytes(rng.choice([16, 16, 16, 8, 24]))


def pan_text():
    roll = rng.random()
    if roll < 0.70:
        return digits(rng.randint(12, 19))
    if roll < 0.80:
        return digits(rng.randint(0, 11))
    if roll < 0.90:
        return digits(rng.randint(13, 19), "0123456789ABCDEFabcdef")  # pyemv accepts hex letters
    return digits(rng.randint(13, 19), "0123456789") + rng.choice(["X", " ", "-", "=", "é"])


def psn_text():
    return rng.choice([None, "00", "01", digits(2), digits(2), "", digits(1), digits(3), "G1"])


# --- kd ------------------------------------------------------------------------------------------------
def kd_cases():
    cases = []
    for option, fn in (("a", kd.derive_icc_mk_a), ("b", kd.derive_icc_mk_b)):
        op = f"kd.derive_icc_mk_{option}"
        for _ in range(60):
            run(cases, op, fn, iss_mk=issuer_key(), pan=pan_text(), psn=psn_text())
        for length in (0, 7, 12, 15, 17, 32):
            run(cases, op, fn, iss_mk=rbytes(length), pan=digits(16), psn="00")
        # the prefix beyond the last 16 digits is ignored by option A, even when it is not hex
        run(cases, op, fn, iss_mk=rbytes(16), pan="XY" + digits(16), psn="00")
        # option B: odd PAN gets a leading zero, but an odd PSN leaves an odd number of digits
        run(cases, op, fn, iss_mk=rbytes(16), pan=digits(17), psn="1")
        run(cases, op, fn, iss_mk=rbytes(16), pan=digits(18), psn="123")
        run(cases, op, fn, iss_mk=rbytes(16), pan="000000000000000005", psn="23")
    for _ in range(40):
        run(cases, "kd.derive_common_sk", kd.derive_common_sk, icc_mk=rbytes(16), r=rbytes(8))
    for mk, r in ((8, 8), (24, 8), (16, 7), (16, 9), (16, 0)):
        run(cases, "kd.derive_common_sk", kd.derive_common_sk, icc_mk=rbytes(mk), r=rbytes(r))
    for _ in range(30):
        run(cases, "kd.derive_visa_sm_sk", kd.derive_visa_sm_sk, icc_mk=rbytes(16), atc=rbytes(2))
    for mk, atc in ((8, 2), (24, 2), (16, 1), (16, 3)):
        run(cases, "kd.derive_visa_sm_sk", kd.derive_visa_sm_sk, icc_mk=rbytes(mk), atc=rbytes(atc))
    shapes = [(8, 4), (16, 2), (4, 16), (2, 256), (1, 65535), (1, 70000), (3, 41), (11, 3), (5, 10)]
    for _ in range(40):
        height, branch = rng.choice(shapes)
        iv = rng.choice([None, bytes(16), rbytes(16)])  # None: leave the default (pyemv refuses an explicit None)
        run(cases, "kd.derive_emv2000_tree_sk", kd.derive_emv2000_tree_sk,
            icc_mk=rbytes(16), atc=rbytes(2), height=height, branch_factor=branch, **({"iv": iv} if iv else {}))
    bad = [(8, 3), (15, 2), (0, 4), (-1, 4), (1, 65534), (8, 0), (8, 1), (-2, 0),
           (8, -4), (2, -256), (3, -41), (16, -2)]
    for height, branch in bad:
        for atc in (bytes(2), rbytes(2), bytes.fromhex("0100")):
            run(cases, "kd.derive_emv2000_tree_sk", kd.derive_emv2000_tree_sk,
                icc_mk=rbytes(16), atc=atc, height=height, branch_factor=branch)
    for mk, atc, iv in ((8, 2, 16), (16, 1, 16), (16, 2, 8), (16, 2, 17)):
        run(cases, "kd.derive_emv2000_tree_sk", kd.derive_emv2000_tree_sk,
            icc_mk=rbytes(mk), atc=rbytes(atc), iv=rbytes(iv))
    write("pyemv-kd.json", ["kd.derive_icc_mk_a", "kd.derive_icc_mk_b", "kd.derive_common_sk",
                            "kd.derive_visa_sm_sk", "kd.derive_emv2000_tree_sk"], cases)


# --- ac ------------------------------------------------------------------------------------------------
def ac_cases():
    cases = []
    paddings = [None, ac.PaddingType.VISA, ac.PaddingType.EMV]
    for _ in range(80):
        length = rng.choice([None, None, 8, 4, 5, 6, 7, 0, 1, 3, 9, 100, -1, -3, -8, -9])
        run(cases, "ac.generate_ac", ac.generate_ac, sk_ac=rbytes(16), data=rbytes(rng.randint(0, 40)),
            padding_type=rng.choice(paddings), length=length)
    for n in (8, 24, 0):
        run(cases, "ac.generate_ac", ac.generate_ac, sk_ac=rbytes(n), data=rbytes(16))
    for _ in range(40):
        run(cases, "ac.generate_arpc_1", ac.generate_arpc_1, sk_ac=rbytes(16), arqc=rbytes(8), arpc_rc=rbytes(2))
    for sk, arqc, rc in ((8, 8, 2), (16, 7, 2), (16, 9, 2), (16, 8, 1), (16, 8, 3)):
        run(cases, "ac.generate_arpc_1", ac.generate_arpc_1, sk_ac=rbytes(sk), arqc=rbytes(arqc), arpc_rc=rbytes(rc))
    for _ in range(50):
        prop = rng.choice([None, b"", rbytes(rng.randint(1, 8))])
        run(cases, "ac.generate_arpc_2", ac.generate_arpc_2, sk_ac=rbytes(16), arqc=rbytes(8), csu=rbytes(4),
            prop_auth_data=prop)
    for sk, arqc, csu, prop in ((24, 8, 4, 0), (16, 7, 4, 0), (16, 8, 3, 0), (16, 8, 5, 0), (16, 8, 4, 9)):
        run(cases, "ac.generate_arpc_2", ac.generate_arpc_2, sk_ac=rbytes(sk), arqc=rbytes(arqc), csu=rbytes(csu),
            prop_auth_data=rbytes(prop))
    write("pyemv-ac.json", ["ac.generate_ac", "ac.generate_arpc_1", "ac.generate_arpc_2"], cases)


# --- cvn -----------------------------------------------------------------------------------------------
STANDARD = {"tag_9f02": 6, "tag_9f03": 6, "tag_9f1a": 2, "tag_95": 5, "tag_5f2a": 2, "tag_9a": 3,
            "tag_9c": 1, "tag_9f37": 4, "tag_82": 2, "tag_9f36": 2}
EXTRA = {  # the per-CVN arguments of generate_ac after tag_9f36, with their usual lengths
    "VisaCVN10": {"cvr": [4]},
    "VisaCVN18": {"tag_9f10": [7, 32]},
    "VisaCVN22": {"tag_9f10": [32, 7]},
    "InteracCVN133": {"tag_9f10": [22]},
    "MasterCardCVN16": {"cvr": [6]},
    "MasterCardCVN17": {"cvr": [6], "counters": [8, 16]},
    "MasterCardCVN20": {"cvr": [6]},
    "MasterCardCVN21": {"cvr": [6], "counters": [8, 16]},
}
ARPC = {  # generate_arpc's arguments and their usual lengths
    "VisaCVN10": {"tag_9f26": 8, "arpc_rc": 2},
    "VisaCVN18": {"tag_9f26": 8, "tag_9f36": 2, "csu": 4, "proprietary_auth_data": None},
    "VisaCVN22": {"tag_9f26": 8, "tag_9f36": 2, "csu": 4, "proprietary_auth_data": None},
    "InteracCVN133": {"tag_9f26": 8, "tag_9f37": 4, "tag_9f36": 2, "arpc_rc": 2},
    "MasterCardCVN16": {"tag_9f26": 8, "arpc_rc": 2},
    "MasterCardCVN17": {"tag_9f26": 8, "arpc_rc": 2},
    "MasterCardCVN20": {"tag_9f26": 8, "tag_9f36": 2, "arpc_rc": 2},
    "MasterCardCVN21": {"tag_9f26": 8, "tag_9f36": 2, "arpc_rc": 2},
}


def card_args():
    args = {"iss_mk_ac": rbytes(16), "iss_mk_smi": rbytes(16), "iss_mk_smc": rbytes(16),
            "pan": digits(rng.choice([16, 16, 16, 13, 17, 18, 19])), "psn": rng.choice([None, "", "00", "01", "7"])}
    if rng.random() < 0.05:
        args[rng.choice(["iss_mk_ac", "iss_mk_smi", "iss_mk_smc"])] = rbytes(rng.choice([0, 10, 32]))
    if rng.random() < 0.03:
        args["pan"] = digits(16) + "Z"
    return args


def skewed(length):
    """Mostly the usual length; sometimes one byte off, or empty, to catch what pyemv refuses."""
    roll = rng.random()
    if roll < 0.85:
        return rbytes(length)
    if roll < 0.95:
        return rbytes(max(0, length + rng.choice([-1, 1])))
    return b""


def cvn_cases():
    cases = []
    for name in EXTRA:
        cls = getattr(cvn, name)

        def generate_ac(_cls=cls, **args):
            card = {k: args.pop(k) for k in ("iss_mk_ac", "iss_mk_smi", "iss_mk_smc", "pan", "psn")}
            return _cls(**card).generate_ac(**args)

        def generate_arpc(_cls=cls, **args):
            card = {k: args.pop(k) for k in ("iss_mk_ac", "iss_mk_smi", "iss_mk_smc", "pan", "psn")}
            return _cls(**card).generate_arpc(**args)

        for _ in range(25):
            args = card_args()
            args.update({tag: skewed(n) for tag, n in STANDARD.items()})
            args.update({tag: skewed(rng.choice(ns)) for tag, ns in EXTRA[name].items()})
            run(cases, f"cvn.{name}.generate_ac", generate_ac, **args)
        for _ in range(15):
            args = card_args()
            for tag, n in ARPC[name].items():
                args[tag] = rng.choice([None, b"", rbytes(rng.randint(1, 8)), rbytes(9)]) if n is None else skewed(n)
            run(cases, f"cvn.{name}.generate_arpc", generate_arpc, **args)
    write("pyemv-cvn.json", [f"cvn.{name}.generate_ac/generate_arpc" for name in EXTRA], cases)


# --- cvv -----------------------------------------------------------------------------------------------
def cvv_cases():
    cases = []
    for _ in range(50):
        if rng.random() < 0.5:
            text = digits(16) + "D" + digits(rng.randint(7, 20))
            track = bytes.fromhex(text + "F" * (len(text) % 2))  # track 2 template, F-padded
        else:
            track = rbytes(rng.randint(0, 40))
        run(cases, "cvv.generate_cvc3", cvv.generate_cvc3, icc_cvc3=rbytes(16), track_template=track,
            atc=rbytes(2), un=rbytes(4))
    for key, atc, un in ((8, 2, 4), (24, 2, 4), (16, 1, 4), (16, 3, 4), (16, 2, 3), (16, 2, 5)):
        run(cases, "cvv.generate_cvc3", cvv.generate_cvc3, icc_cvc3=rbytes(key), track_template=rbytes(19),
            atc=rbytes(atc), un=rbytes(un))
    write("pyemv-cvv.json", ["cvv.generate_cvc3"], cases)


kd_cases()
ac_cases()
cvn_cases()
cvv_cases()
