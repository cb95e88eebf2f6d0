#!/usr/bin/env python3
"""Independent check of the EMV offline data authentication data our Swift code signs.

Reads Tests/EMVTests/Vectors/oda-test-card.json (written by ODACrossCheckTests.writeCrossCheckVector) and verifies
every certificate and signature with nothing but Python's pow() and hashlib, following the layouts of EMV Book 2
(tables 6, 7, 14, 17, 19) and the fDDA input of EMV Book C-3. Exits non-zero on the first mismatch.
"""
import hashlib
import json
import sys


def h(text):
    return bytes.fromhex(text)


def sha1(*parts):
    return hashlib.sha1(b"".join(parts)).digest()


def recover(signature, modulus, exponent, fmt, what):
    """Opens a signature and checks the frame: '6A' | format | data | hash (20) | 'BC'."""
    n = int.from_bytes(modulus, "big")
    assert len(signature) == len(modulus), f"{what}: length {len(signature)} != modulus {len(modulus)}"
    value = int.from_bytes(signature, "big")
    assert value < n, f"{what}: signature not below the modulus"
    block = pow(value, int.from_bytes(exponent, "big"), n).to_bytes(len(modulus), "big")
    assert block[0] == 0x6A and block[-1] == 0xBC and block[1] == fmt, f"{what}: bad frame {block[:2].hex()}"
    return block


def check_hash(block, *extra, what):
    assert sha1(block[1:-21], *extra) == block[-21:-1], f"{what}: hash mismatch"


def digits(cn):
    out = []
    for nibble in cn.hex().upper():
        if nibble == "F":
            break
        out.append(nibble)
    return "".join(out)


def certified_key(block, id_length, remainder, exponent, what):
    """Table 6 / table 14 fields after the identifier; returns (identifier, modulus)."""
    i = 2 + id_length
    identifier = block[2:i]
    assert block[i + 5] == 0x01 and block[i + 6] == 0x01, f"{what}: algorithm indicators"
    key_length, exponent_length = block[i + 7], block[i + 8]
    field = block[i + 9:-21]
    modulus = field[:key_length] + remainder
    assert len(modulus) == key_length, f"{what}: remainder does not complete the modulus"
    assert all(b == 0xBB for b in field[key_length:]), f"{what}: padding"
    assert exponent_length == len(exponent), f"{what}: exponent length"
    return identifier, modulus


def check_card(card):
    pan = digits(h(card["pan"]))
    static = h(card["staticData"])

    block = recover(h(card["issuerCertificate"]), h(card["caModulus"]), h(card["caExponent"]), 0x02, "issuer")
    check_hash(block, h(card["issuerRemainder"]), h(card["issuerExponent"]), what="issuer")
    issuer_id, issuer_modulus = certified_key(block, 4, h(card["issuerRemainder"]), h(card["issuerExponent"]), "issuer")
    assert pan.startswith(digits(issuer_id)) and 3 <= len(digits(issuer_id)) <= 8, "issuer identifier"
    issuer_exponent = h(card["issuerExponent"])

    block = recover(h(card["iccCertificate"]), issuer_modulus, issuer_exponent, 0x04, "ICC")
    check_hash(block, h(card["iccRemainder"]), h(card["iccExponent"]), static, what="ICC")
    icc_pan, icc_modulus = certified_key(block, 10, h(card["iccRemainder"]), h(card["iccExponent"]), "ICC")
    assert digits(icc_pan) == pan, "ICC PAN"
    assert icc_modulus == h(card["iccModulus"]), "ICC modulus"
    icc_exponent = h(card["iccExponent"])

    block = recover(h(card["signedStaticApplicationData"]), issuer_modulus, issuer_exponent, 0x03, "SSAD")
    assert block[2] == 0x01 and block[3:5] == h(card["dataAuthenticationCode"]), "SSAD fields"
    assert all(b == 0xBB for b in block[5:-21]), "SSAD padding"
    check_hash(block, static, what="SSAD")

    def dynamic(sdad, terminal, what):
        block = recover(sdad, icc_modulus, icc_exponent, 0x05, what)
        assert block[2] == 0x01, f"{what}: hash algorithm"
        length = block[3]
        assert all(b == 0xBB for b in block[4 + length:-21]), f"{what}: padding"
        check_hash(block, terminal, what=what)
        return block[4:4 + length]

    f = card["fDDA"]
    terminal = h(f["unpredictableNumber"]) + h(f["amountAuthorised"]) + h(f["transactionCurrencyCode"]) \
        + h(f["cardAuthenticationRelatedData"])
    data = dynamic(h(f["signedDynamicApplicationData"]), terminal, "fDDA")
    assert data == bytes([len(h(f["iccDynamicNumber"]))]) + h(f["iccDynamicNumber"]), "fDDA dynamic number"

    c = card["cda"]
    data = dynamic(h(c["signedDynamicApplicationData"]), h(c["unpredictableNumber"]), "CDA")
    number = h(c["iccDynamicNumber"])
    expected = bytes([len(number)]) + number + h(c["cryptogramInformationData"]) + h(c["applicationCryptogram"]) \
        + sha1(h(c["pdolData"]), h(c["cdol1Data"]), h(c["responseData"]))
    assert data == expected, "CDA dynamic data"


def main(path):
    with open(path) as file:
        cards = json.load(file)["cards"]
    for card in cards:
        check_card(card)
        print(f"ok: {card['issuerKeyName']} / {card['iccKeyName']}: issuer and ICC certificates, SDA, fDDA, CDA")
    print(f"{len(cards)} passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Tests/EMVTests/Vectors/oda-test-card.json")
