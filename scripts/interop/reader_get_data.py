#!/usr/bin/env python3
"""PC/SC part 3's GET DATA (FF CA), as PC/SC tools send it to a contactless reader: P1 00 the card's UID, P1 01 the
historical bytes of its ATR. Prints both in hex; checks them against --uid and the historical bytes of the ATR pcscd
reports (ISO/IEC 7816-3, 8.2, parsed here). Exit 1 with the reason on any failure.

usage: reader_get_data.py --reader NAME --uid HEX
"""

import argparse
import sys

from smartcard.System import readers


def historical_bytes(atr):
    """The K bytes after the interface bytes (K: T0's low nibble), following each TDi's indicator."""
    count, indicator, position = atr[1] & 0x0F, atr[1] >> 4, 2
    while True:
        position += bin(indicator & 0x07).count("1")
        if not indicator & 0x08:
            break
        indicator = atr[position] >> 4
        position += 1
    return atr[position : position + count]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", required=True)
    parser.add_argument("--uid", required=True)
    options = parser.parse_args()
    reader = next((r for r in readers() if str(r) == options.reader), None)
    if reader is None:
        sys.exit(f"reader_get_data: no reader {options.reader!r}")
    connection = reader.createConnection()
    connection.connect()
    atr = connection.getATR()
    uid, sw1, sw2 = connection.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
    if (sw1, sw2) != (0x90, 0x00) or bytes(uid).hex().upper() != options.uid.upper():
        sys.exit(f"reader_get_data: UID {bytes(uid).hex()} {sw1:02X}{sw2:02X}, expected {options.uid} 9000")
    history, sw1, sw2 = connection.transmit([0xFF, 0xCA, 0x01, 0x00, 0x00])
    if (sw1, sw2) != (0x90, 0x00) or history != historical_bytes(atr):
        sys.exit(f"reader_get_data: historical bytes {bytes(history).hex()} {sw1:02X}{sw2:02X}, "
                 f"expected {bytes(historical_bytes(atr)).hex()} 9000 (ATR {bytes(atr).hex()})")
    print(f"GET DATA (FF CA): UID {bytes(uid).hex().upper()}, historical bytes {bytes(history).hex().upper()} "
          f"of ATR {bytes(atr).hex().upper()}")


if __name__ == "__main__":
    main()
