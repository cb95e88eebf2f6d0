#!/usr/bin/env python3
"""A contact EMV transaction with offline data authentication, as an independent terminal runs it, written from the
EMV 4.4 books (Book 2: 5.3, 6.3-6.6 and tables 6, 7, 17, 18; Book 3: 6.5, 10.3) and not from our Swift code, through
pyscard and pcscd:

SELECT the AID -> GET PROCESSING OPTIONS without a TTQ (a contact terminal has none: PDOL data with 9F66 zero, or
83 00 for no PDOL) -> READ RECORD per AFL, keeping the records the AFL marks for offline data authentication -> the
issuer and ICC public keys recovered from their certificates under the CA key of test-ca.json (hashes checked) ->
DDA when the AIP offers it: INTERNAL AUTHENTICATE with the DDOL data, the SDAD's hash checked -> GENERATE AC for an
ARQC with CDOL1 data, CDA asked when the AIP offers it and its signature checked (ICC dynamic data with the CID, the
cryptogram and the transaction data hash).

usage: contact_flow.py --reader NAME --aid HEX --ca-file test-ca.json
Standard library and pyscard only. Exit 1 with the reason on any failure.
"""

import argparse
import hashlib
import json
import os
import sys

from contactless_flow import (Card, Failure, aip_and_afl, dol_data, find, parse_dol, parse_tlv, read_records,
                              terminal_data)


def sha1(*parts):
    return hashlib.sha1(b"".join(parts)).digest()


def recover(signature, modulus, exponent, fmt, what):
    """Book 2 5.3/6.3: '6A' | format | data | hash (20) | 'BC' under an RSA public key."""
    if len(signature) != len(modulus):
        raise Failure(f"{what}: {len(signature)} bytes under a {len(modulus)}-byte key")
    n = int.from_bytes(modulus, "big")
    block = pow(int.from_bytes(signature, "big"), int.from_bytes(exponent, "big"), n).to_bytes(len(modulus), "big")
    if block[0] != 0x6A or block[-1] != 0xBC or block[1] != fmt:
        raise Failure(f"{what}: header {block[:2].hex()} or trailer {block[-1:].hex()} wrong (format {fmt:02X})")
    return block


def issuer_key(ca_modulus, ca_exponent, certificate, remainder, exponent):
    """Book 2 table 6: format 02; the issuer key's leading digits after byte 15, the rest in the remainder (92)."""
    block = recover(certificate, ca_modulus, ca_exponent, 0x02, "issuer certificate")
    if sha1(block[1:-21], remainder, exponent) != block[-21:-1]:
        raise Failure("issuer certificate: hash mismatch")
    length = block[13]
    return (block[15:-21] + remainder)[:length]


def icc_key(issuer_modulus, issuer_exponent, certificate, remainder, exponent, static_data, pan):
    """Book 2 table 14: format 04, the PAN at bytes 2-11; the hash covers the static data to be authenticated."""
    block = recover(certificate, issuer_modulus, issuer_exponent, 0x04, "ICC certificate")
    if sha1(block[1:-21], remainder, exponent, static_data) != block[-21:-1]:
        raise Failure("ICC certificate: hash mismatch over the static data")
    if block[2:12].hex().upper().rstrip("F") != pan:
        raise Failure("ICC certificate: not this card's PAN")
    length = block[19]
    return (block[21:-21] + remainder)[:length]


def dynamic_data(block):
    """Book 2 table 17: format 05, hash algorithm, L_DD, the ICC dynamic data."""
    length = block[3]
    return block[4 : 4 + length]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", default=None)
    parser.add_argument("--aid", required=True)
    parser.add_argument("--ca-file", required=True)
    parser.add_argument("--amount", type=int, default=100, help="amount in minor units (default 100)")
    args = parser.parse_args()
    try:
        card = Card(args.reader)
        aid = bytes.fromhex(args.aid)
        fci = parse_tlv(card.transmit(bytes([0x00, 0xA4, 0x04, 0x00, len(aid)]) + aid + b"\0", "SELECT AID"), "FCI")
        values = terminal_data(args.amount)
        values[0x9F66] = bytes(4)  # no Terminal Transaction Qualifiers: a contact terminal
        values[0x9F35] = bytes.fromhex("22")  # attended, offline with online capability
        values[0x9F33] = bytes.fromhex("E0F8C8")  # IC with contact; plaintext PIN, enciphered PIN, signature; SDA, DDA, CDA
        pdol = find(fci, 0x9F38) or b""
        pdol_data = dol_data(parse_dol(pdol), values)
        gpo = parse_tlv(
            card.transmit(bytes([0x80, 0xA8, 0x00, 0x00, len(pdol_data) + 2, 0x83, len(pdol_data)]) + pdol_data + b"\0",
                          "GET PROCESSING OPTIONS"), "GPO")
        aip, afl = aip_and_afl(gpo)
        if aip is None or not afl or len(afl) % 4:
            raise Failure("GPO without a TTQ: no AIP and AFL (did the card answer as contactless?)")
        if find(gpo, 0x9F26) is not None:
            raise Failure("GPO without a TTQ carried a cryptogram: the card ran its contactless path")
        records, static = [], b""
        for sfi, _, raw, nodes, signed in read_records(card, afl):
            records.extend(nodes)
            if signed:
                # Book 3 10.3: SFI 1-10 sign the template's value, SFI 11-30 the whole record.
                static += nodes[0][1] if sfi <= 10 else raw
        tag_list = find(records, 0x9F4A)
        if tag_list == b"\x82":
            static += aip
        pan = find(records, 0x5A).hex().upper().rstrip("F")

        authorities = {(a["rid"].upper(), a["index"].upper()): a["privateKey"]
                       for a in json.load(open(args.ca_file))["authorities"]}
        index = find(records, 0x8F).hex().upper()
        ca = authorities.get((aid[:5].hex().upper(), index))
        if ca is None:
            raise Failure(f"no CA key {aid[:5].hex().upper()}/{index} in {args.ca_file}")
        issuer = issuer_key(bytes.fromhex(ca["modulus"]), bytes.fromhex(ca["publicExponent"]), find(records, 0x90),
                            find(records, 0x92) or b"", find(records, 0x9F32))
        icc = icc_key(issuer, find(records, 0x9F32), find(records, 0x9F46), find(records, 0x9F48) or b"",
                      find(records, 0x9F47), static, pan)
        icc_exponent = find(records, 0x9F47)
        done = ["issuer and ICC keys"]

        if aip[0] & 0x20:  # DDA (Book 2, 6.5)
            ddol = find(records, 0x9F49) or bytes.fromhex("9F3704")  # the terminal's default DDOL
            ddol_data = dol_data(parse_dol(ddol), {0x9F37: os.urandom(4)})
            answer = parse_tlv(card.transmit(bytes([0x00, 0x88, 0x00, 0x00, len(ddol_data)]) + ddol_data + b"\0",
                                             "INTERNAL AUTHENTICATE"), "INTERNAL AUTHENTICATE")
            sdad = answer[0][1] if answer[0][0] == 0x80 else find(answer, 0x9F4B)
            block = recover(sdad, icc, icc_exponent, 0x05, "DDA signature")
            if sha1(block[1:-21], ddol_data) != block[-21:-1]:
                raise Failure("DDA signature: hash mismatch over the DDOL data")
            done.append(f"DDA (ICC dynamic number {dynamic_data(block)[1:].hex().upper()})")

        cda = bool(aip[0] & 0x01)
        values[0x9F37] = os.urandom(4)
        cdol1_data = dol_data(parse_dol(find(records, 0x8C)), values)
        p1 = 0x80 | (0x10 if cda else 0x00)  # ARQC, and CDA when the card offers it
        raw = card.transmit(bytes([0x80, 0xAE, p1, 0x00, len(cdol1_data)]) + cdol1_data + b"\0", "GENERATE AC")
        answer = parse_tlv(raw, "GENERATE AC")
        if answer[0][0] == 0x80:
            body = answer[0][1]
            cid, atc, cryptogram = body[0:1], body[1:3], body[3:11]
            signature = None
        else:
            cid, atc, cryptogram = find(answer, 0x9F27), find(answer, 0x9F36), find(answer, 0x9F26)
            signature = find(answer, 0x9F4B)
        if cid is None or cid[0] >> 6 not in (0, 2):
            raise Failure(f"GENERATE AC: CID {cid.hex() if cid else '-'} is neither an AAC nor an ARQC")
        kind = "ARQC" if cid[0] >> 6 == 2 else "AAC"
        if cda and signature is not None:
            # Book 2 6.6.2: the signature carries the CID, the cryptogram and the transaction data hash.
            block = recover(signature, icc, icc_exponent, 0x05, "CDA signature")
            if sha1(block[1:-21], values[0x9F37]) != block[-21:-1]:
                raise Failure("CDA signature: hash mismatch over the Unpredictable Number")
            data = dynamic_data(block)
            number_length = data[0]
            signed_cid = data[1 + number_length : 2 + number_length]
            cryptogram = data[2 + number_length : 10 + number_length]
            transaction_hash = data[10 + number_length : 30 + number_length]
            if signed_cid != cid:
                raise Failure("CDA signature: its CID is not the response's")
            response_objects = b"".join(
                raw_tlv(tag, value) for tag, value, _ in answer[0][2] if tag != 0x9F4B)
            if sha1(pdol_data, cdol1_data, response_objects) != transaction_hash:
                raise Failure("CDA signature: transaction data hash mismatch")
            done.append("CDA")
        elif cda:
            # Book 2 6.6.1: a card that declines (AAC) need not sign; M/Chip returns its AAC unsigned.
            if kind != "AAC":
                raise Failure("CDA asked for an ARQC, no signature returned")
            done.append("CDA not applied (AAC)")
        print(f"contact flow: AID {aid.hex().upper()}, AIP {aip.hex().upper()}, {len(records)} records, "
              f"PAN {pan[:6]}...{pan[-4:]}, {', '.join(done)} verified, {kind} {cryptogram.hex().upper()} "
              f"(ATC {atc.hex().upper() if atc else '-'}), {card.apdus} APDUs")
    except Failure as failure:
        sys.exit(f"contact flow: {failure}")
    except Exception as error:  # pyscard's own errors (no card, reader gone), a missing data object
        sys.exit(f"contact flow: {type(error).__name__}: {error}")


def raw_tlv(tag, value):
    """A data object as it was sent: tag, BER length, value."""
    tag_bytes = tag.to_bytes((tag.bit_length() + 7) // 8, "big")
    length = bytes([len(value)]) if len(value) < 0x80 else bytes([0x81, len(value)])
    return tag_bytes + length + value


if __name__ == "__main__":
    main()
