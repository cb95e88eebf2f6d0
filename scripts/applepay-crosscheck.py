#!/usr/bin/env python3
"""Decrypt an EC_v1 Apple Pay token independently of the Swift code, with PyPI `cryptography`.

Usage: applepay-crosscheck.py TOKEN.json CERTIFICATE.pem PRIVATE_KEY.pem

Prints one JSON object: the merchant identifier hash (hex, from the certificate's extension
1.2.840.113635.100.6.32), the publicKeyHash (base64 SHA-256 of the SubjectPublicKeyInfo), the ECDH shared
secret and the symmetric key (base64), and the decrypted payload (text). ApplePayTests compare these with the
Swift decryptor's. No signature checks: this is the decryption half only.
"""
import base64
import hashlib
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def main(token_path, certificate_path, key_path):
    with open(token_path) as f:
        token = json.load(f)
    payment_data = token.get("paymentData", token)
    with open(certificate_path, "rb") as f:
        certificate = x509.load_pem_x509_certificate(f.read())
    with open(key_path, "rb") as f:
        key_text = f.read()
    # OpenSSL exports may put "Bag Attributes" lines before the PEM block.
    key_text = key_text[key_text.index(b"-----BEGIN"):]
    private_key = serialization.load_pem_private_key(key_text, password=None)

    extension = certificate.extensions.get_extension_for_oid(x509.ObjectIdentifier("1.2.840.113635.100.6.32"))
    raw = extension.value.value  # UnrecognizedExtension: DER of a UTF8String holding 64 hex digits
    merchant_id_hash = bytes.fromhex(raw[2:].decode())
    spki = certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)

    ephemeral = serialization.load_der_public_key(base64.b64decode(payment_data["header"]["ephemeralPublicKey"]))
    shared = private_key.exchange(ec.ECDH(), ephemeral)  # fixed width: 32 bytes
    kdf_input = b"\x00\x00\x00\x01" + shared + b"\x0did-aes256-GCM" + b"Apple" + merchant_id_hash
    key = hashlib.sha256(kdf_input).digest()
    plaintext = AESGCM(key).decrypt(b"\x00" * 16, base64.b64decode(payment_data["data"]), None)
    print(json.dumps({
        "merchantIdentifierHash": merchant_id_hash.hex().upper(),
        "publicKeyHash": base64.b64encode(hashlib.sha256(spki).digest()).decode(),
        "sharedSecret": base64.b64encode(shared).decode(),
        "symmetricKey": base64.b64encode(key).decode(),
        "payload": plaintext.decode(),
    }))


if __name__ == "__main__":
    main(*sys.argv[1:4])
