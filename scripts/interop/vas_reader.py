#!/usr/bin/env python3
"""An Apple VAS reader written from the protocol's public description (kormax/apple-vas, Grayson Martin's write-up),
not from our Swift code: SELECT OSE.VAS.01 through pyscard and pcscd, GET VAS DATA for each pass type, and the
cryptogram decrypted with `cryptography` (ECDH P-256, ANSI X9.63 KDF with SHA-256, AES-256-GCM with a 16-byte zero
IV). Checks the wallet's label, the status words and that the message and timestamp are the expected ones.

usage: vas_reader.py --reader NAME --key MERCHANT.pem --pass-type-id ID --message TEXT [--absent ID]
       vas_reader.py --make-pass DIR --pass-type-id ID --message TEXT   (a merchant key and a pass.json in DIR)
Prints the cryptogram of the first pass in hex on the last line. Exit 1 with the reason on any failure.
"""

import argparse
import base64
import datetime
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from contactless_flow import Failure as TLVFailure, parse_tlv  # noqa: E402  (the BER-TLV reader of our pyscard flows)

AID = b"OSE.VAS.01"
APPLE_EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


class Failure(Exception):
    pass


def tlv(data):
    """Every data object of BER-TLV `data`, nested ones too, as {tag: value}."""
    found = {}

    def walk(nodes):
        for tag, value, children in nodes:
            found[tag] = bytes(value)
            walk(children or [])

    try:
        walk(parse_tlv(list(data), "VAS answer"))
    except TLVFailure as error:
        raise Failure(str(error)) from error
    return found


def encode(tag, value):
    tag_bytes = tag.to_bytes((tag.bit_length() + 7) // 8, "big")
    return tag_bytes + bytes([len(value)]) + value


def transmit(connection, apdu):
    data, sw1, sw2 = connection.transmit(list(apdu))
    if sw1 == 0x61:  # T=0: fetch the rest
        data, sw1, sw2 = connection.transmit([0x00, 0xC0, 0x00, 0x00, sw2])
    return bytes(data), (sw1 << 8) | sw2


def get_vas_data(connection, pass_type_id, mode):
    """GET VAS DATA: version 1.0, SHA-256 of the pass type identifier, terminal capabilities (VAS supported, mode)."""
    body = (
        encode(0x9F22, b"\x01\x00")
        + encode(0x9F25, hashlib.sha256(pass_type_id.encode()).digest())
        + encode(0x9F26, bytes([0x00, 0x80, 0x00, mode]))
    )
    return transmit(connection, bytes([0x80, 0xCA, 0x01, 0x01, len(body)]) + body + b"\x00")


def decrypt(cryptogram, key, pass_type_id):
    if len(cryptogram) < 4 + 32 + 16:
        raise Failure(f"cryptogram of {len(cryptogram)} bytes is too short")
    key_id = hashlib.sha256(key.public_key().public_numbers().x.to_bytes(32, "big")).digest()[:4]
    if cryptogram[:4] != key_id:
        raise Failure(f"key id {cryptogram[:4].hex()} is not the merchant key's {key_id.hex()}")
    # Only x travels: either y gives the same ECDH secret.
    device = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b"\x02" + cryptogram[4:36])
    secret = key.exchange(ec.ECDH(), device)
    shared_info = b"\x0did-aes256-GCM" + b"ApplePay encrypted VAS data" + hashlib.sha256(pass_type_id.encode()).digest()
    aes_key = X963KDF(algorithm=hashes.SHA256(), length=32, sharedinfo=shared_info).derive(secret)
    plain = AESGCM(aes_key).decrypt(b"\x00" * 16, cryptogram[36:], b"")
    timestamp = APPLE_EPOCH + datetime.timedelta(seconds=int.from_bytes(plain[:4], "big"))
    return plain[4:].decode("utf-8"), timestamp


def make_pass(directory, pass_type_id, message):
    key = ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(directory, "merchant.pem"), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    # pass.json carries the key as base64 of a compressed-point SubjectPublicKeyInfo, as Apple's guide makes it.
    compressed = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    spki = bytes.fromhex("3039301306072a8648ce3d020106082a8648ce3d030107032200") + compressed
    document = {
        "formatVersion": 1,
        "passTypeIdentifier": pass_type_id,
        "serialNumber": "interop-1",
        "organizationName": "Interop Coffee",
        "description": "Loyalty card",
        "nfc": {"message": message, "encryptionPublicKey": base64.b64encode(spki).decode()},
    }
    with open(os.path.join(directory, "pass.json"), "w") as f:
        json.dump(document, f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader")
    parser.add_argument("--key")
    parser.add_argument("--pass-type-id", required=True)
    parser.add_argument("--message", required=True)
    parser.add_argument("--absent", action="append", default=[])
    parser.add_argument("--make-pass")
    args = parser.parse_args()
    if args.make_pass:
        make_pass(args.make_pass, args.pass_type_id, args.message)
        return

    from smartcard.System import readers

    with open(args.key, "rb") as f:
        key = serialization.load_pem_private_key(f.read(), None)
    matches = [r for r in readers() if str(r) == args.reader]
    if not matches:
        raise Failure(f"no reader {args.reader!r}")
    connection = matches[0].createConnection()
    connection.connect()

    fci, sw = transmit(connection, bytes([0x00, 0xA4, 0x04, 0x00, len(AID)]) + AID + b"\x00")
    if sw != 0x9000:
        raise Failure(f"SELECT OSE.VAS.01: status {sw:04X}")
    objects = tlv(fci)
    if objects.get(0x50) != b"ApplePay" or objects.get(0x9F21) != b"\x01\x00":
        raise Failure(f"SELECT answer is not an Apple wallet of VAS 1.0: {fci.hex()}")
    print(f"SELECT OSE.VAS.01: label ApplePay, version 1.0, capabilities {objects.get(0x9F23, b'').hex()}")

    for absent in args.absent:
        _, sw = get_vas_data(connection, absent, 0x01)
        if sw != 0x6A83:
            raise Failure(f"GET VAS DATA for {absent}, which the wallet lacks: status {sw:04X}, expected 6A83")
        print(f"GET VAS DATA {absent}: 6A83 (no pass)")

    data, sw = get_vas_data(connection, args.pass_type_id, 0x01)
    if sw != 0x9000:
        raise Failure(f"GET VAS DATA {args.pass_type_id}: status {sw:04X}")
    cryptogram = tlv(data).get(0x9F27)
    if not cryptogram:
        raise Failure(f"GET VAS DATA answer without 9F27: {data.hex()}")
    message, timestamp = decrypt(cryptogram, key, args.pass_type_id)
    skew = abs((datetime.datetime.now(datetime.timezone.utc) - timestamp).total_seconds())
    if message != args.message:
        raise Failure(f"decrypted {message!r}, expected {args.message!r}")
    if skew > 120:
        raise Failure(f"the wallet's timestamp {timestamp.isoformat()} is {skew:.0f} s from now")
    print(f"GET VAS DATA {args.pass_type_id}: 9000, decrypted {message!r} made {timestamp.isoformat()}")
    connection.disconnect()
    print(cryptogram.hex())


if __name__ == "__main__":
    try:
        main()
    except Failure as error:
        sys.exit(f"vas reader: {error}")
