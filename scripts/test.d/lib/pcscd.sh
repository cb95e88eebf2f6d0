# shellcheck shell=bash
# Sourced by the PC/SC steps: a private pcscd on a private socket (in its own mount namespace, see pcscd_start),
# with one vpcd reader on a private port, and the virtual cards started beside it; everything is stopped by PID on
# EXIT, whatever the step's outcome.
#
#   pcscd_start                 starts pcscd; sets PCSC_DIR, VPCD_PORT, VPCD (127.0.0.1:PORT), exports
#                               PCSCLITE_CSOCK_NAME so every client (tap, pyscard, emvtool) talks to it
#   pcscd_stop                  stops pcscd (for the "pcscd not running" test); pcscd_start again restarts it
#   card_start NAME CMD...      runs a virtual card in the background (log in $PCSC_DIR/NAME.log), then waits until
#                               the reader reports it present; CARD_PID is its PID
#   card_stop                   stops the card started last and waits until the reader reports no card
#   wait_card [--absent]        bounded wait on the reader's state (pyscard, through pcscd; never the vpcd port)
#
# Needs VENV (pyscard) and ROOT. vpcd's reader has two slots, listening on VPCD_PORT and VPCD_PORT+1.

PCSC_WAIT=${PCSC_WAIT:-15}
PCSC_PIDS=()
CARD_PID=""
PCSCD_PID=""

pcsc_cleanup() {
    local status=$?
    local pid
    for pid in "${PCSC_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PCSC_PIDS[@]}"; do
        # Bounded: a process that ignores SIGTERM for 3 s is killed.
        for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ $status -ne 0 ] && [ -n "${PCSC_DIR:-}" ]; then
        for log in "$PCSC_DIR"/*.log; do
            [ -s "$log" ] || continue
            echo "--- last lines of $(basename "$log")" >&2
            tail -n 15 "$log" >&2
        done
    fi
    [ -n "${PCSC_DIR:-}" ] && rm -rf "$PCSC_DIR"
    return $status
}
trap pcsc_cleanup EXIT
# Interrupted or timed out (CI, Ctrl-C): exit, so the EXIT trap above still stops everything.
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports in a row on 127.0.0.1 (vpcd's two slots), found by binding them, never by connecting.
free_port_pair() {
    python3 - <<'PY'
import random, socket
for _ in range(200):
    port = random.randrange(20000, 60000)
    try:
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", port)); b.bind(("127.0.0.1", port + 1))
            print(port); break
    except OSError:
        continue
PY
}

pcscd_start() {
    command -v pcscd >/dev/null || { echo "pcscd is not installed" >&2; return 1; }
    mkdir -p /run/pcscd
    [ -f /usr/lib/pcsc/drivers/serial/libifdvpcd.so ] || { echo "vsmartcard-vpcd is not installed" >&2; return 1; }
    if [ -z "${PCSC_DIR:-}" ]; then
        PCSC_DIR=$(mktemp -d /tmp/contactless-pcsc.XXXXXX)
        VPCD_PORT=$(free_port_pair)
        # shellcheck disable=SC2034 # used by the steps that source this file
        VPCD=127.0.0.1:$VPCD_PORT
        mkdir -p "$PCSC_DIR/reader.conf.d"
        printf 'FRIENDLYNAME "Virtual PCD"\nDEVICENAME /dev/null:0x%X\nLIBPATH /usr/lib/pcsc/drivers/serial/libifdvpcd.so\nCHANNELID 0x%X\n' \
            "$VPCD_PORT" "$VPCD_PORT" > "$PCSC_DIR/reader.conf.d/vpcd"
        export PCSCLITE_CSOCK_NAME=$PCSC_DIR/pcscd.comm
    fi
    # pcscd 1.9.9 itself ignores PCSCLITE_CSOCK_NAME (only libpcsclite, the client side, reads it) and always
    # listens on /run/pcscd/pcscd.comm; so it runs in its own mount namespace where PCSC_DIR is bound over
    # /run/pcscd: its socket (and PID file) land in PCSC_DIR, where the clients' PCSCLITE_CSOCK_NAME points, and a
    # system pcscd or another test's is never touched. `exec` keeps the PID ours to stop.
    # shellcheck disable=SC2016 # $1 and $2 are the inner shell's
    unshare --mount sh -c 'mount --bind "$1" /run/pcscd && exec pcscd -f -a -c "$2"' sh \
        "$PCSC_DIR" "$PCSC_DIR/reader.conf.d/vpcd" >>"$PCSC_DIR/pcscd.log" 2>&1 &
    PCSCD_PID=$!
    PCSC_PIDS+=("$PCSCD_PID")
    # Up when the socket exists and the vpcd reader is listed.
    for _ in $(seq $((PCSC_WAIT * 10))); do
        if [ -S "$PCSCLITE_CSOCK_NAME" ] && "$VENV/bin/python" -c '
import sys
from smartcard.System import readers
sys.exit(0 if any("Virtual PCD" in str(r) for r in readers()) else 1)' 2>/dev/null; then
            echo "pcscd $PCSCD_PID on $PCSCLITE_CSOCK_NAME, vpcd reader on port $VPCD_PORT"
            return 0
        fi
        kill -0 "$PCSCD_PID" 2>/dev/null || { echo "pcscd exited at start" >&2; tail -n 20 "$PCSC_DIR/pcscd.log" >&2; return 1; }
        sleep 0.1
    done
    echo "pcscd: no vpcd reader after ${PCSC_WAIT}s" >&2
    tail -n 20 "$PCSC_DIR/pcscd.log" >&2
    return 1
}

pcscd_stop() {
    [ -n "$PCSCD_PID" ] || return 0
    kill -TERM "$PCSCD_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$PCSCD_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PCSCD_PID" 2>/dev/null || true
    wait "$PCSCD_PID" 2>/dev/null || true
    PCSCD_PID=""
}

wait_card() {
    "$VENV/bin/python" "$ROOT/scripts/interop/wait_card.py" --timeout "$PCSC_WAIT" "$@"
}

card_start() {
    local name=$1
    shift
    "$@" >>"$PCSC_DIR/$name.log" 2>&1 &
    CARD_PID=$!
    PCSC_PIDS+=("$CARD_PID")
    if ! wait_card >/dev/null; then
        echo "virtual card $name (pid $CARD_PID) never showed in the reader" >&2
        tail -n 20 "$PCSC_DIR/$name.log" >&2
        return 1
    fi
}

card_stop() {
    [ -n "$CARD_PID" ] || return 0
    kill -TERM "$CARD_PID" 2>/dev/null || true
    for _ in $(seq 30); do kill -0 "$CARD_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$CARD_PID" 2>/dev/null || true
    wait "$CARD_PID" 2>/dev/null || true
    CARD_PID=""
    wait_card --absent >/dev/null
}
