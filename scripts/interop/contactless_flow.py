#!/usr/bin/env python3
"""The contactless read flow, as an independent reader would run it, through pyscard and pcscd:
SELECT PPSE -> SELECT the highest-priority AID -> GET PROCESSING OPTIONS with full PDOL data (built from the card's
PDOL) -> READ RECORD for every record of the AFL. Checks every response parses as BER-TLV, the PAN (5A, else track 2)
matches --pan, and prints what it read (PAN masked). Exit 1 with the reason on any failure.

usage: contactless_flow.py [--reader NAME] [--pan DIGITS] [--aid HEX] [--expiry YYMMDD] [--amount MINOR]
Standard library and pyscard only; T=0 transport rules (61XX: GET RESPONSE, 6CXX: re-send with Le) handled here.
"""

import argparse
import datetime
import os
import sys

from smartcard.CardConnection import CardConnection
from smartcard.System import readers


class Failure(Exception):
    pass


def parse_tlv(data, where):
    """BER-TLV (EMV Book 3 annex B) into [(tag, value, children-or-None)]; raises Failure on malformed bytes."""
    nodes, i = [], 0
    while i < len(data):
        if data[i] in (0x00, 0xFF):  # padding between objects
            i += 1
            continue
        start = i
        tag = data[i]
        i += 1
        if tag & 0x1F == 0x1F:
            while True:
                if i >= len(data):
                    raise Failure(f"{where}: tag cut short at offset {start}")
                tag = (tag << 8) | data[i]
                i += 1
                if not data[i - 1] & 0x80:
                    break
        if i >= len(data):
            raise Failure(f"{where}: no length for tag {tag:X}")
        length = data[i]
        i += 1
        if length & 0x80:
            count = length & 0x7F
            if count == 0 or count > 3 or i + count > len(data):
                raise Failure(f"{where}: bad length of tag {tag:X}")
            length = int.from_bytes(data[i : i + count], "big")
            i += count
        if i + length > len(data):
            raise Failure(f"{where}: tag {tag:X} claims {length} bytes, {len(data) - i} left")
        value = data[i : i + length]
        i += length
        first = tag >> (8 * ((tag.bit_length() - 1) // 8))
        children = parse_tlv(value, f"{where}/{tag:X}") if first & 0x20 else None
        nodes.append((tag, value, children))
    return nodes


def find(nodes, tag):
    for t, value, children in nodes:
        if t == tag:
            return value
        if children:
            found = find(children, tag)
            if found is not None:
                return found
    return None


def find_all(nodes, tag):
    out = []
    for t, value, children in nodes:
        if t == tag:
            out.append((value, children))
        if children:
            out.extend(find_all(children, tag))
    return out


def parse_dol(dol):
    """A data object list: [(tag, length)]."""
    entries, i = [], 0
    while i < len(dol):
        tag = dol[i]
        i += 1
        if tag & 0x1F == 0x1F:
            while i < len(dol):
                tag = (tag << 8) | dol[i]
                i += 1
                if not dol[i - 1] & 0x80:
                    break
        if i >= len(dol):
            raise Failure("PDOL cut short")
        entries.append((tag, dol[i]))
        i += 1
    return entries


def terminal_data(amount):
    today = datetime.date.today()
    return {
        0x9F66: bytes.fromhex("36004000"),  # TTQ: qVSDC, EMV contact, online capable, signature, CDCVM supported
        0x9F02: int(str(amount), 16).to_bytes(6, "big"),  # amount, authorised (n12 BCD)
        0x9F03: bytes(6),
        0x9F1A: bytes.fromhex("0840"),
        0x95: bytes(5),
        0x5F2A: bytes.fromhex("0840"),
        0x9A: bytes.fromhex(today.strftime("%y%m%d")),
        0x9C: bytes(1),
        0x9F37: os.urandom(4),
        0x9F35: bytes.fromhex("22"),
        0x9F40: bytes.fromhex("6000F0A001"),
        0x9F33: bytes.fromhex("E0E1C8"),
        0x9F4E: b"CONTACTLESS INTEROP".ljust(20)[:20],
    }


def dol_data(entries, values):
    out = b""
    for tag, length in entries:
        value = values.get(tag, b"")
        # Book 3 5.4: numeric values are right-aligned (left-padded), others truncated/padded on the right.
        out += value[-length:].rjust(length, b"\0") if tag in (0x9F02, 0x9F03) else value[:length].ljust(length, b"\0")
    return out


def aip_and_afl(gpo):
    """The AIP and AFL of a GPO response: format 1 (80: AIP then AFL) or format 2 (77 with 82 and 94)."""
    if gpo and gpo[0][0] == 0x80:
        return gpo[0][1][:2], gpo[0][1][2:]
    return find(gpo, 0x82), find(gpo, 0x94) or b""


def read_records(card, afl):
    """READ RECORD for every record the AFL names (Book 3, 10.2), each a single record template 70:
    [(sfi, number, raw bytes, parsed nodes, whether the AFL marks it for offline data authentication)]."""
    out = []
    for i in range(0, len(afl), 4):
        sfi, first, last, signed = afl[i] >> 3, afl[i + 1], afl[i + 2], afl[i + 3]
        if not 1 <= sfi <= 30 or first == 0 or last < first:
            raise Failure(f"AFL entry {afl[i:i + 4].hex().upper()} is invalid")
        for number in range(first, last + 1):
            name = f"READ RECORD SFI {sfi} record {number}"
            raw = card.transmit(bytes([0x00, 0xB2, number, (sfi << 3) | 4, 0x00]), name)
            nodes = parse_tlv(raw, name)
            if len(nodes) != 1 or nodes[0][0] != 0x70:
                raise Failure(f"{name}: not a single record template 70")
            out.append((sfi, number, raw, nodes, number < first + signed))
    return out


class Card:
    def __init__(self, reader_name):
        names = [str(r) for r in readers()]
        chosen = next((r for r in readers() if str(r) == reader_name or (not reader_name and "Virtual PCD" in str(r))), None)
        if chosen is None:
            raise Failure(f"reader {reader_name or 'Virtual PCD'} not found (readers: {', '.join(names) or 'none'})")
        self.connection = chosen.createConnection()
        self.connection.connect(CardConnection.T0_protocol | CardConnection.T1_protocol)
        self.apdus = 0

    def transmit(self, apdu, name):
        data, sw1, sw2 = self.connection.transmit(list(apdu))
        self.apdus += 1
        while True:
            if sw1 == 0x61:  # T=0: more data waiting
                more, sw1, sw2 = self.connection.transmit([0x00, 0xC0, 0x00, 0x00, sw2])
                data += more
                self.apdus += 1
            elif sw1 == 0x6C:  # T=0: wrong Le, re-send with the right one
                fixed = list(apdu[:4]) + [sw2] if len(apdu) <= 5 else list(apdu[:-1]) + [sw2]
                data, sw1, sw2 = self.connection.transmit(fixed)
                self.apdus += 1
            else:
                break
        if (sw1, sw2) != (0x90, 0x00):
            raise Failure(f"{name}: status {sw1:02X}{sw2:02X}")
        return bytes(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", default=None)
    parser.add_argument("--pan", default=None, help="the PAN the records must carry")
    parser.add_argument("--expiry", default=None, help="the expiry (5F24, YYMMDD) the records must carry")
    parser.add_argument("--aid", default=None, help="the AID PPSE must offer first")
    parser.add_argument("--amount", type=int, default=100, help="amount in minor units (default 100)")
    args = parser.parse_args()
    try:
        card = Card(args.reader)
        ppse = parse_tlv(card.transmit(bytes.fromhex("00A404000E325041592E5359532E444446303100"), "SELECT PPSE"), "PPSE")
        entries = []
        for _, children in find_all(ppse, 0x61):
            aid = find(children or [], 0x4F)
            priority = find(children or [], 0x87)
            if aid:
                entries.append(((priority or b"\x0f")[0] & 0x0F, aid))
        if not entries:
            raise Failure("PPSE lists no application (61/4F)")
        aid = sorted(entries)[0][1]
        if args.aid and aid.hex().upper() != args.aid.upper():
            raise Failure(f"PPSE offers {aid.hex().upper()} first, expected {args.aid.upper()}")
        fci = parse_tlv(card.transmit(bytes([0x00, 0xA4, 0x04, 0x00, len(aid)]) + aid + b"\0", "SELECT AID"), "FCI")
        pdol = find(fci, 0x9F38) or b""
        data = dol_data(parse_dol(pdol), terminal_data(args.amount))
        command = bytes([0x80, 0xA8, 0x00, 0x00, len(data) + 2, 0x83, len(data)]) + data + b"\0"
        gpo_bytes = card.transmit(command, "GET PROCESSING OPTIONS")
        gpo = parse_tlv(gpo_bytes, "GPO")
        aip, afl = aip_and_afl(gpo)
        if aip is None or len(afl) % 4:
            raise Failure("GPO: no AIP or an AFL that is not a list of 4-byte entries")
        records = [nodes for _, _, _, nodes, _ in read_records(card, afl)]
        everything = gpo + [node for nodes in records for node in nodes]
        pan = find(everything, 0x5A)
        track2 = find(everything, 0x57)
        if pan is not None:
            pan_digits = pan.hex().upper().rstrip("F")
        elif track2 is not None:
            pan_digits = track2.hex().upper().split("D")[0]
        else:
            raise Failure("no PAN (5A) nor track 2 (57) in the GPO response or the records")
        expiry = find(everything, 0x5F24)
        if args.pan and pan_digits != args.pan:
            raise Failure(f"PAN ...{pan_digits[-4:]} read, expected ...{args.pan[-4:]}")
        if args.expiry and (expiry is None or expiry.hex() != args.expiry):
            raise Failure(f"expiry {expiry.hex() if expiry else 'none'} read, expected {args.expiry}")
        atc = find(gpo, 0x9F36)
        cid = find(gpo, 0x9F27)
        print(f"contactless flow: AID {aid.hex().upper()}, PDOL data {len(data)} bytes, AIP {aip.hex().upper()}, "
              f"AFL {afl.hex().upper() or '-'}, {len(records)} records, PAN {pan_digits[:6]}...{pan_digits[-4:]}, "
              f"expiry {expiry.hex() if expiry else '-'}, ATC {atc.hex().upper() if atc else '-'}, "
              f"CID {cid.hex().upper() if cid else '-'}, {card.apdus} APDUs")
    except Failure as failure:
        sys.exit(f"contactless flow: {failure}")
    except Exception as error:  # pyscard's own errors (no card, reader gone)
        sys.exit(f"contactless flow: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
