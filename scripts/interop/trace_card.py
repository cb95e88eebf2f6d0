#!/usr/bin/env python3
"""A virtual card on vpcd that answers from a recorded APDU trace (Tests/TransactionTests/Traces/*.trace).

Trace format (Sources/SmartCard/APDUTrace.swift): one exchange a line, `COMMAND-HEX : RESPONSE-HEX`, `#` starts a
comment, spaces between hex digits ignored. A command is answered with the response of the recorded command that
has the same header and data (Le ignored: T=0 readers drop it); GET PROCESSING OPTIONS and GENERATE AC, whose data
holds the terminal's date and unpredictable number, match on header and data length. A command the trace does not
have gets 6D00, or with --unrecorded remove the card leaves the field (as the kernel's replay ends: trace exhausted).
As in the kernel's replay tests, PAN digits the trace's source masked as FFFFFF inside track 2 are answered as zeros
so track 2 parses.

Fault modes for the tests: --remove-after N closes the connection instead of answering APDU N+1 (the card leaves
the field mid-transaction); --garbage-ins XX answers that instruction with garbage: a malformed TLV and 9000
(--garbage tlv, the default) or a single byte, no status word (--garbage short).

usage: trace_card.py --vpcd HOST:PORT TRACE [--unrecorded 6D00|remove] [--remove-after N] [--garbage-ins A8]
                     [--garbage tlv|short]                     [--atr HEX] [--log]
"""

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vicc  # noqa: E402

LOOSE = {(0x80, 0xA8), (0x80, 0xAE)}  # GPO, GENERATE AC
MASKED_TRACK2 = re.compile(r"([0-9]{6})FFFFFF([0-9]{4}D)")


def split_apdu(apdu):
    """Header and data of a short command APDU (Le dropped)."""
    header, body = apdu[:4], apdu[4:]
    if len(body) <= 1:
        return header, b""
    return header, body[1 : 1 + body[0]]


def load(path):
    exchanges = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        command, sep, response = line.partition(":")
        if not sep:
            sys.exit(f"{path}:{number}: no ':' between command and response")
        command = bytes.fromhex(re.sub(r"\s", "", command))
        response = re.sub(r"\s", "", response).upper()
        response = bytes.fromhex(MASKED_TRACK2.sub(r"\g<1>000000\g<2>", response))
        exchanges.append((command, response))
    return exchanges


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vpcd", required=True, help="HOST:PORT of the vpcd reader")
    parser.add_argument("trace")
    parser.add_argument("--unrecorded", choices=["6D00", "remove"], default="6D00")
    parser.add_argument("--remove-after", type=int, default=None)
    parser.add_argument("--garbage-ins", default=None, help="instruction byte (hex) answered with garbage")
    parser.add_argument("--garbage", choices=["tlv", "short"], default="tlv")
    parser.add_argument("--atr", default=vicc.DEFAULT_ATR.hex())
    parser.add_argument("--log", action="store_true", help="print every exchange on stderr")
    args = parser.parse_args()
    exchanges = load(args.trace)
    garbage_ins = int(args.garbage_ins, 16) if args.garbage_ins else None

    def respond(apdu):
        header, data = split_apdu(apdu)
        if header[1] == garbage_ins and args.garbage == "short":
            return b"\x6f"
        if header[1] == garbage_ins:
            return bytes.fromhex("77058202") + b"\x90\x00"  # template claims 5 bytes, holds 2
        for command, response in exchanges:
            recorded_header, recorded_data = split_apdu(command)
            if header != recorded_header:
                continue
            if data == recorded_data or ((header[0], header[1]) in LOOSE and len(data) == len(recorded_data)):
                return response
        if args.unrecorded == "remove":
            raise vicc.Removed(f"unrecorded command {apdu[:4].hex().upper()}")
        return bytes.fromhex("6D00")

    count = vicc.serve(
        vicc.parse_address(args.vpcd), respond, atr=bytes.fromhex(args.atr), max_apdus=args.remove_after,
        log=vicc.stderr_log if args.log else None)
    print(f"trace card: answered {count} APDUs", file=sys.stderr)


if __name__ == "__main__":
    main()
