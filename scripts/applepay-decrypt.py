#!/usr/bin/env python3
"""Independent Apple Pay token decryptor (EC_v1 and RSA_v1), written from Apple's "Payment token format reference"
with the `cryptography` package only, as an oracle for the Swift token service and verifier.

It decrypts and prints the payload JSON; it does not check the signature (the tests do that with `openssl cms`).

  EC_v1:  Z = ECDH(merchant key, header.ephemeralPublicKey), 32 bytes big-endian;
          key = SHA-256(00000001 || Z || 0D || "id-aes256-GCM" || "Apple" || merchant id hash)
          where the merchant id hash is the 32 bytes of the certificate's 1.2.840.113635.100.6.32 extension (hex);
          AES-256-GCM, IV 16 zero bytes, data = ciphertext || 16-byte tag.
  RSA_v1: key = RSA-OAEP(SHA-256, MGF1-SHA-256) unwrap of header.wrappedKey; AES-128-GCM, IV 16 zero bytes.
Also checks header.publicKeyHash = base64 SHA-256 of the certificate's SubjectPublicKeyInfo.

Usage: applepay-decrypt.py [--details] TOKEN.json CERT.pem KEY.pem    (TOKEN: a whole PKPaymentToken or its
paymentData). Prints the payload; with --details one JSON object instead: merchantIdentifierHash (hex),
publicKeyHash, sharedSecret (EC_v1) and symmetricKey (base64), payload (text), which ApplePayTests compare with
the Swift decryptor's intermediate values.
Exit status: 0 decrypted, 1 any failure (message on stderr).
"""

import base64
import hashlib
import json
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MERCHANT_ID_OID = x509.ObjectIdentifier("1.2.840.113635.100.6.32")


def merchant_id_hash(certificate):
    value = certificate.extensions.get_extension_for_oid(MERCHANT_ID_OID).value.value
    # DER UTF8String: tag 0C, one length byte (64), 64 hex characters.
    if len(value) != 66 or value[0] != 0x0C or value[1] != 64:
        raise ValueError("merchant identifier extension is not a 64-character UTF8String")
    return bytes.fromhex(value[2:].decode("ascii"))


def decrypt(payment_data, certificate, private_key):
    """The payload and the values on the way: publicKeyHash, merchant id hash, shared secret, symmetric key."""
    header = payment_data["header"]
    details = {}
    spki = certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    details["publicKeyHash"] = base64.b64encode(hashlib.sha256(spki).digest()).decode()
    if base64.b64decode(header["publicKeyHash"]) != hashlib.sha256(spki).digest():
        raise ValueError("publicKeyHash does not match the certificate")
    data = base64.b64decode(payment_data["data"])
    version = payment_data["version"]
    if version == "EC_v1":
        ephemeral = serialization.load_der_public_key(base64.b64decode(header["ephemeralPublicKey"]))
        shared = private_key.exchange(ec.ECDH(), ephemeral)  # fixed width: 32 bytes
        details["merchantIdentifierHash"] = merchant_id_hash(certificate).hex().upper()
        details["sharedSecret"] = base64.b64encode(shared).decode()
        other_info = b"\x0did-aes256-GCM" + b"Apple" + merchant_id_hash(certificate)
        key = hashlib.sha256(b"\x00\x00\x00\x01" + shared + other_info).digest()
    elif version == "RSA_v1":
        oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
        key = private_key.decrypt(base64.b64decode(header["wrappedKey"]), oaep)
        if len(key) != 16:
            raise ValueError("RSA_v1 key is not 16 bytes")
    else:
        raise ValueError(f"unknown version {version!r}")
    details["symmetricKey"] = base64.b64encode(key).decode()
    return AESGCM(key).decrypt(b"\x00" * 16, data, None), details


def main(argv):
    show_details = len(argv) > 1 and argv[1] == "--details"
    if show_details:
        argv = argv[:1] + argv[2:]
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 1
    with open(argv[1], "rb") as file:
        token = json.load(file)
    payment_data = token.get("paymentData", token)
    with open(argv[2], "rb") as file:
        certificate = x509.load_pem_x509_certificate(file.read())
    with open(argv[3], "rb") as file:
        key_text = file.read()
    # OpenSSL exports may put "Bag Attributes" lines before the PEM block.
    private_key = serialization.load_pem_private_key(key_text[key_text.find(b"-----BEGIN"):], password=None)
    if not isinstance(private_key, (ec.EllipticCurvePrivateKey, rsa.RSAPrivateKey)):
        print("unsupported key type", file=sys.stderr)
        return 1
    try:
        payload, details = decrypt(payment_data, certificate, private_key)
        if show_details:
            print(json.dumps(dict(details, payload=payload.decode("utf-8"))))
        else:
            sys.stdout.write(payload.decode("utf-8"))
    except Exception as error:  # noqa: BLE001 — any failure is a test failure, reported as such
        print(f"decryption failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
