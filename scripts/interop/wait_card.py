#!/usr/bin/env python3
"""Waits, bounded, until a PC/SC reader reports a card present (or absent), through pcscd's own status change API.

usage: wait_card.py [--reader NAME] [--absent] [--timeout SECONDS]
Without --reader: the first reader whose name contains "Virtual PCD". Prints the reader's name on success; exits 1
with the reason on timeout. Talks to the pcscd of PCSCLITE_CSOCK_NAME; never touches the vpcd port.
"""

import argparse
import sys
import time

from smartcard import scard


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", default=None)
    parser.add_argument("--absent", action="store_true")
    parser.add_argument("--timeout", type=float, default=10)
    args = parser.parse_args()
    deadline = time.monotonic() + args.timeout
    want = scard.SCARD_STATE_EMPTY if args.absent else scard.SCARD_STATE_PRESENT
    what = "no card" if args.absent else "a card"
    hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if hresult != scard.SCARD_S_SUCCESS:
        sys.exit(f"wait_card: pcscd not reachable: {scard.SCardGetErrorMessage(hresult)}")
    try:
        readers = []
        while time.monotonic() < deadline:
            hresult, readers = scard.SCardListReaders(context, [])
            match = [r for r in readers if (args.reader or "Virtual PCD") in r]
            if match:
                reader = args.reader if args.reader in readers else match[0]
                hresult, states = scard.SCardGetStatusChange(context, 0, [(reader, scard.SCARD_STATE_UNAWARE)])
                if hresult == scard.SCARD_S_SUCCESS and states[0][1] & want:
                    print(reader)
                    return
            time.sleep(0.05)
        sys.exit(f"wait_card: no {what} in {args.reader or 'a Virtual PCD reader'} after {args.timeout:g} s "
                 f"(readers: {', '.join(readers) or 'none'})")
    finally:
        scard.SCardReleaseContext(context)


if __name__ == "__main__":
    main()
