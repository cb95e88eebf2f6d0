#!/usr/bin/env bash
# The wallet SDK's card at reader software nobody here wrote (issue 8, part 5b): `tap wallet pay --vpcd` digitizes
# the approving test card at the in-process issuer and serves its ContactlessPaymentSessions, one after another,
# through a private pcscd with a vpcd reader (scripts/test.d/lib, as 50-pcsc-interop).
#   a. emvtool listapps and info read the wallet's card: its AID, and a DPAN from the issuer's token range
#   b. `tap read --pcsc --vas` reads the wallet's loyalty pass (a pass.json made by scripts/interop/vas_reader.py)
#      and completes a transaction in the same tap (Online Request), and the wallet's session reports
#      transactionCompleted (its summary counts it)
# Every wait is bounded (timeout); pcscd and the wallet are stopped by PID on exit.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
source scripts/test.d/lib/pcscd.sh
fail() { echo "wallet pcsc: $*" >&2; exit 1; }
json_field() { "$PY" -c 'import json,sys; v=json.load(sys.stdin).get(sys.argv[1]); print("" if v is None else v)' "$1"; }

pcscd_start
READER="Virtual PCD 00 00"
pass_id=pass.dev.contactless.interop.wallet
mkdir -p "$PCSC_DIR/vas"
"$PY" scripts/interop/vas_reader.py --make-pass "$PCSC_DIR/vas" --pass-type-id "$pass_id" --message member-77 \
    || fail "vas_reader.py could not make the pass"

# Scheme, AID, the issuer's test token BIN (IssuerKeys.testVisaTokenPrefix / testMastercardTokenPrefix).
while read -r card aid token_bin; do
    aid_shown="[$(sed 's/../& /g; s/ $//' <<<"$aid")]"
    card_start "wallet-$card" "$TAP" wallet pay --vpcd "$VPCD" --card "$card" --pass "$PCSC_DIR/vas/pass.json" --json
    log=$PCSC_DIR/wallet-$card.log
    for command in listapps info; do
        # shellcheck disable=SC2086 # the command's words are meant to split
        if ! out=$(timeout 60 "$VENV/bin/emvtool" $command 2>&1); then
            echo "$out" | tail -n 20 >&2
            fail "emvtool $command against the wallet's $card card exited non-zero"
        fi
        grep -qF "$aid_shown" <<<"$out" || { echo "$out" >&2; fail "emvtool $command (wallet $card): no AID $aid"; }
        if [ "$command" = info ]; then
            grep -q "$token_bin" <<<"$out" || { echo "$out" >&2; fail "emvtool info (wallet $card): no DPAN in $token_bin"; }
        fi
        echo "emvtool $command (wallet $card): exit 0, AID $aid$([ "$command" = info ] && echo ", DPAN in token BIN $token_bin")"
    done
    json=$(timeout 60 "$TAP" read --pcsc --reader "$READER" --json --vas "$pass_id" --vas-key "$PCSC_DIR/vas/merchant.pem") \
        || { tail -n 20 "$log" >&2; fail "tap read --pcsc against the wallet's $card card failed"; }
    read -r outcome message < <("$PY" -c '
import json, sys
read = json.load(sys.stdin)
print(read["transaction"]["outcome"], read["vas"]["entries"][0].get("message"))' <<<"$json")
    [ "$outcome" = onlineRequest ] \
        || { echo "$json" >&2; tail -n 20 "$log" >&2; fail "tap read --pcsc (wallet $card): not Online Request"; }
    [ "$message" = member-77 ] || { echo "$json" >&2; fail "tap read --pcsc --vas (wallet $card): pass message '$message'"; }
    card_stop
    summary=$(grep '^{' "$log" | tail -n 1)
    [ -n "$summary" ] || { tail -n 20 "$log" >&2; fail "tap wallet pay ($card) printed no summary"; }
    transactions=$(json_field transactions <<<"$summary")
    [ "${transactions:-0}" -ge 1 ] || { echo "$summary" >&2; fail "tap wallet pay ($card): no completed transaction"; }
    echo "tap read --pcsc --vas (wallet $card): pass $message, onlineRequest; the wallet's sessions completed $transactions transactions"
done <<'CARDS'
visa A0000000031010 489537
mastercard A0000000041010 520473
CARDS
echo "wallet pcsc: ok"
