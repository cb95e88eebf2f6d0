"""A minimal virtual card for vsmartcard's vpcd: connects to the reader's port and answers its frames.

vpcd protocol: every frame is a 2-byte big-endian length then the bytes. A 1-byte frame is a control message
(00 power off, 01 power on, 02 reset, 04 get ATR: answered with the ATR); anything longer is a command APDU,
answered with the whole response APDU. vpcd writes each frame in two sends, so TCP_QUICKACK is set before every
receive (Linux clears it again after each ACK); without it every APDU waits ~40 ms for the delayed ACK.
Standard library only.
"""

import socket
import sys

TCP_QUICKACK = getattr(socket, "TCP_QUICKACK", 12)
DEFAULT_ATR = bytes.fromhex("3B80800101")  # offers T=0 and T=1


class Closed(Exception):
    """vpcd closed the connection."""


class Removed(Exception):
    """Raised by `respond` to leave the field: the connection closes instead of answering."""


def _recv_exact(sock, count):
    data = b""
    while len(data) < count:
        sock.setsockopt(socket.IPPROTO_TCP, TCP_QUICKACK, 1)
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise Closed()
        data += chunk
    return data


def serve(address, respond, atr=DEFAULT_ATR, on_reset=None, max_apdus=None, log=None):
    """Connects to vpcd at (host, port) and answers until vpcd closes or `max_apdus` APDUs were answered.

    `respond(apdu: bytes) -> bytes` answers one command APDU. Returns the number of APDUs answered.
    After `max_apdus` answers the card "leaves the field": the connection closes before the next answer.
    """
    sock = socket.create_connection(address, timeout=None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    answered = 0
    try:
        while True:
            try:
                length = int.from_bytes(_recv_exact(sock, 2), "big")
                frame = _recv_exact(sock, length)
            except (Closed, ConnectionError):
                return answered
            if length == 1:
                if frame[0] == 0x04:
                    sock.sendall(len(atr).to_bytes(2, "big") + atr)
                elif frame[0] in (0x00, 0x02) and on_reset:
                    on_reset()
                continue
            if max_apdus is not None and answered >= max_apdus:
                if log:
                    log(f"card removed before answering APDU {frame[:4].hex().upper()}")
                return answered
            try:
                answer = respond(frame)
            except Removed as removed:
                if log:
                    log(f"card removed: {removed}")
                return answered
            if log:
                log(f"{frame.hex().upper()} : {answer.hex().upper()}")
            sock.sendall(len(answer).to_bytes(2, "big") + answer)
            answered += 1
    finally:
        sock.close()


def parse_address(text):
    host, _, port = text.rpartition(":")
    return (host or "127.0.0.1", int(port))


def stderr_log(line):
    print(line, file=sys.stderr, flush=True)
