#!/usr/bin/env bash
# Faults through pcscd (issue 4, part 5), each bounded by `timeout` so a hang fails the step instead of stalling it:
#   the card leaves mid-transaction (a virtual card that closes after N APDUs; `tap emulate` SIGKILLed during a
#   `tap bench pcsc`) -> card removed, no hang; pcscd not running -> a clear error; an unknown reader -> the list
#   of readers; a card answering garbage -> a typed error naming the APDU.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
source scripts/test.d/lib/pcscd.sh
fail() { echo "pcsc faults: $*" >&2; exit 1; }
TRACE=Tests/TransactionTests/Traces/visa-prepaid-qvsdc-online.trace

# Runs a command under `timeout`; sets OUT (stdout + stderr) and RC; a timeout or a crash (signal) fails the step.
run_bounded() {
    local seconds=$1
    shift
    set +e
    OUT=$(timeout -k 5 "$seconds" "$@" 2>&1)
    RC=$?
    set -e
    [ $RC -eq 124 ] || [ $RC -eq 137 ] && { echo "$OUT" | tail -n 10 >&2; fail "hung (killed after ${seconds}s): $*"; }
    [ $RC -gt 128 ] && { echo "$OUT" | tail -n 10 >&2; fail "crashed with signal $((RC - 128)): $*"; }
    return 0
}

# "outcome: reason [APDU: error]" from a `tap read --json` report on stdin.
summary() {
    "$PY" -c 'import json,sys; d=json.load(sys.stdin); e=[a["name"] + ": " + a["error"] for a in d["apdus"] if a.get("error")]; print(d["outcome"] + ": " + d["reason"] + (" [" + e[0] + "]" if e else ""))'
}

pcscd_start
READER="Virtual PCD 00 00"

# --- the card leaves after SELECT PPSE and SELECT AID: GET PROCESSING OPTIONS finds no card --------------------------
card_start removed "$PY" scripts/interop/trace_card.py --vpcd "$VPCD" "$TRACE" --remove-after 2
run_bounded 30 "$TAP" read --pcsc --reader "$READER" --json
result=$(summary <<<"$OUT") || { echo "$OUT" >&2; fail "card gone mid-transaction: tap read --json printed no report"; }
grep -Eiq 'removed' <<<"$result" || fail "card gone mid-transaction: tap read does not say card removed: $result"
echo "card removed after 2 APDUs: tap read exit $RC, $result"
card_stop

# --- tap emulate SIGKILLed while tap bench pcsc runs ---------------------------------------------------------------
card_start emulate-killed "$TAP" emulate --vpcd "$VPCD" --card visa --keys 60000
killed=$CARD_PID
apdus_before=$(grep -c 'APDU:' "$PCSC_DIR/pcscd.log" || true)
timeout -k 5 60 "$TAP" bench pcsc --reader "$READER" --count 100000 --json > "$PCSC_DIR/bench-killed.out" 2>&1 &
bench=$!
PCSC_PIDS+=("$bench")
# Kill once purchases are under way: pcscd (-a) logs every APDU; wait for 50 more than before the bench started.
for _ in $(seq 300); do
    [ "$(grep -c 'APDU:' "$PCSC_DIR/pcscd.log")" -gt $((apdus_before + 50)) ] && break
    sleep 0.1
done
kill -0 "$bench" 2>/dev/null || { cat "$PCSC_DIR/bench-killed.out" >&2; fail "tap bench pcsc ended before the card was killed"; }
{ kill -KILL "$killed" && wait "$killed"; } 2>/dev/null || true  # no "Killed" job notice: this one is meant
set +e
wait "$bench"
RC=$?
set -e
OUT=$(cat "$PCSC_DIR/bench-killed.out")
[ $RC -eq 124 ] || [ $RC -eq 137 ] && fail "tap bench pcsc hung after tap emulate was killed"
[ $RC -gt 128 ] && fail "tap bench pcsc crashed (signal $((RC - 128))) after tap emulate was killed"
grep -Eiq 'card ?removed|removed' <<<"$OUT" || { echo "$OUT" | tail -n 10 >&2; fail "tap emulate killed: tap bench pcsc does not say card removed"; }
echo "tap emulate SIGKILLed during tap bench pcsc: exit $RC, says: $(grep -Eio '[^"]*removed[^"]*' <<<"$OUT" | head -n 1)"
CARD_PID=""
wait_card --absent >/dev/null

# --- a card answering garbage to GET PROCESSING OPTIONS: a malformed TLV, then a single byte (no status word) ------
# The APDU is named by the outcome's reason (TLV error) or by the failed exchange in the report (transport error).
for kind in tlv short; do
    card_start "garbage-$kind" "$PY" scripts/interop/trace_card.py --vpcd "$VPCD" "$TRACE" --garbage-ins A8 --garbage "$kind"
    run_bounded 30 "$TAP" read --pcsc --reader "$READER" --json
    reason=$(summary <<<"$OUT") \
        || { echo "$OUT" >&2; fail "garbage ($kind): tap read --json printed no report"; }
    grep -q 'GET PROCESSING OPTIONS' <<<"$reason" || fail "garbage ($kind): the outcome does not name the APDU: $reason"
    grep -Eq 'approved|onlineRequest' <<<"$reason" && fail "garbage ($kind): the kernel went on: $reason"
    echo "garbage GPO response ($kind): tap read exit $RC, $reason"
    card_stop
done

# --- an unknown reader name: the list of readers --------------------------------------------------------------------
run_bounded 30 "$TAP" read --pcsc --reader "No Such Reader 99"
[ $RC -ne 0 ] || fail "tap read --pcsc accepted an unknown reader"
grep -q "$READER" <<<"$OUT" || { echo "$OUT" >&2; fail "unknown reader: the readers are not listed"; }
echo "unknown reader: exit $RC, lists the readers: $(grep -m1 "$READER" <<<"$OUT")"

# --- pcscd not running; then pcscd back, and tap emulate (left running) reconnects by itself ------------------------
card_start emulate-restart "$TAP" emulate --vpcd "$VPCD" --card visa
pcscd_stop
run_bounded 30 "$TAP" readers
[ $RC -ne 0 ] || fail "tap readers succeeded without pcscd"
grep -Eiq 'pcscd|PC/SC (service|daemon)|not running' <<<"$OUT" || { echo "$OUT" >&2; fail "tap readers without pcscd: no clear error"; }
echo "pcscd not running: tap readers exit $RC: $(head -n 1 <<<"$OUT")"
run_bounded 30 "$TAP" read --pcsc --reader "$READER"
[ $RC -ne 0 ] || fail "tap read --pcsc succeeded without pcscd"
grep -Eiq 'pcscd|PC/SC (service|daemon)|not running' <<<"$OUT" || { echo "$OUT" >&2; fail "tap read --pcsc without pcscd: no clear error"; }
echo "pcscd not running: tap read --pcsc exit $RC: $(head -n 1 <<<"$OUT")"
pcscd_start
wait_card >/dev/null || fail "tap emulate did not reconnect after pcscd restarted"
run_bounded 30 "$TAP" read --pcsc --reader "$READER" --json
result=$(summary <<<"$OUT") || { echo "$OUT" >&2; fail "after the pcscd restart: tap read --json printed no report"; }
grep -q '^onlineRequest' <<<"$result" || fail "after the pcscd restart: $result"
echo "pcscd restarted: tap emulate reconnected, tap read exit $RC, $result"
card_stop
echo "pcsc faults: ok"
