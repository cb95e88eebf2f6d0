#!/usr/bin/env python3
"""Verifies, independently of our Swift code, the ARQC in a `tap read --json` report with pyemv 1.5.0: the
report's field 55 (`iccData`, hex BER-TLV) gives the transaction data, the card profile (JSON) gives the issuer
master keys, PAN and PAN sequence number.

usage: tap read ... --json | verify_arqc.py PROFILE.json
Supports the cryptogram versions of the shipped profiles: visa18, visa22, mastercard20, mastercard21 (and
mastercard16/17). Exit 0 and one line when the ARQC verifies; exit 1 with the reason otherwise.
"""

import json
import sys
import warnings

warnings.filterwarnings("ignore")  # cryptography's TripleDES deprecation, raised inside pyemv
from pyemv import cvn  # noqa: E402


def parse_flat_tlv(data):
    out, i = {}, 0
    while i < len(data):
        tag = data[i]
        i += 1
        if tag & 0x1F == 0x1F:
            while True:
                tag = (tag << 8) | data[i]
                i += 1
                if not data[i - 1] & 0x80:
                    break
        length = data[i]
        i += 1
        if length & 0x80:
            count = length & 0x7F
            length = int.from_bytes(data[i : i + count], "big")
            i += count
        if i + length > len(data):
            raise ValueError(f"field 55: tag {tag:X} runs past the end")
        out[f"{tag:X}"] = data[i : i + length]
        i += length
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    profile = json.load(open(sys.argv[1]))
    report = json.load(sys.stdin)
    icc_hex = report.get("iccData")
    if not icc_hex:
        sys.exit("verify_arqc: the report has no iccData (field 55)")
    tags = parse_flat_tlv(bytes.fromhex(icc_hex))
    need = ["9F02", "9F03", "9F1A", "95", "5F2A", "9A", "9C", "9F37", "82", "9F36", "9F10", "9F26"]
    missing = [t for t in need if t not in tags]
    if missing:
        sys.exit(f"verify_arqc: field 55 lacks {', '.join(missing)}")
    keys = profile["issuerMasterKeys"]
    version = profile["cryptogramVersion"]
    classes = {"visa18": cvn.VisaCVN18, "visa22": cvn.VisaCVN22, "mastercard16": cvn.MasterCardCVN16,
               "mastercard17": cvn.MasterCardCVN17, "mastercard20": cvn.MasterCardCVN20,
               "mastercard21": cvn.MasterCardCVN21}
    if version not in classes:
        sys.exit(f"verify_arqc: cryptogram version {version} not supported here")
    card = classes[version](
        iss_mk_ac=bytes.fromhex(keys["ac"]), iss_mk_smi=bytes.fromhex(keys["smi"]),
        iss_mk_smc=bytes.fromhex(keys["smc"]), pan=profile["pan"], psn=profile.get("panSequenceNumber", "00"))
    common = dict(tag_9f02=tags["9F02"], tag_9f03=tags["9F03"], tag_9f1a=tags["9F1A"], tag_95=tags["95"],
                  tag_5f2a=tags["5F2A"], tag_9a=tags["9A"], tag_9c=tags["9C"], tag_9f37=tags["9F37"],
                  tag_82=tags["82"], tag_9f36=tags["9F36"])
    iad = tags["9F10"]
    if version.startswith("visa"):
        expected = card.generate_ac(**common, tag_9f10=iad)
    else:
        cvr = iad[2:8]  # M/Chip IAD: DKI, CVN, then the 6-byte CVR
        if version in ("mastercard17", "mastercard21"):
            expected = card.generate_ac(**common, cvr=cvr, counters=b"")
        else:
            expected = card.generate_ac(**common, cvr=cvr)
    got = tags["9F26"]
    if expected != got:
        sys.exit(f"verify_arqc: pyemv {type(card).__name__} computes {expected.hex().upper()}, "
                 f"the card sent {got.hex().upper()} (ATC {tags['9F36'].hex().upper()})")
    print(f"pyemv {type(card).__name__}: ARQC {got.hex().upper()} verifies (ATC {tags['9F36'].hex().upper()}, "
          f"UN {tags['9F37'].hex().upper()}, amount {tags['9F02'].hex()})")


if __name__ == "__main__":
    main()
