#!/usr/bin/env bash
# Interop through a real PC/SC stack (issue 4, part 4): a private pcscd with a vpcd reader, our card as a virtual
# card (`tap emulate --vpcd`), and reader software nobody here wrote.
#   a. emvtool (PyPI emv 1.0.14): listapps, appdata 0, info, cap against the Visa and the Mastercard profile
#   b. scripts/interop/contactless_flow.py (pyscard): PPSE, SELECT, GPO with full PDOL data, READ RECORD per AFL;
#      scripts/interop/contact_flow.py (pyscard): a contact transaction, DDA and CDA checked from the EMV books;
#      scripts/interop/reader_get_data.py (pyscard): PC/SC GET DATA (UID, historical bytes) under a contactless ATR
#   c. `tap read --pcsc` against `tap emulate --vpcd`: Online Request, ARQC verified by tap and by pyemv
#   d. `tap read --pcsc` against scripts/interop/trace_card.py replaying real card traces: the trace's outcome
#   e. the Terminal SDK (TerminalTests' ExternalReaderTests) on the vpcd reader: discover, connect, sell, approved
#   f. Apple VAS: `tap emulate --pass` read by scripts/interop/vas_reader.py (pyscard, `cryptography`, written from
#      the protocol's description), its cryptogram opened by `tap vas decrypt`; `tap read --pcsc --vas` reads the
#      pass and pays in one tap
#   g. `tap reader --pcsc` on the vpcd reader, driven by a live `tap serve`: a payment sent over the API completes
# Every wait is bounded (timeout); pcscd and the virtual cards are stopped by PID on exit (scripts/test.d/lib).
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
source scripts/test.d/lib/pcscd.sh
fail() { echo "pcsc interop: $*" >&2; exit 1; }
profile_file() { echo "Sources/CardEmulator/Profiles/$1-test.json"; }
json_field() { "$PY" -c 'import json,sys; v=json.load(sys.stdin).get(sys.argv[1]); print("" if v is None else v)' "$1"; }
# A shipped test profile's first AID, PAN, expiry as 5F24 holds it (YYMMDD, the month's last day) and offline PIN.
profile_facts() {
    "$PY" - "$(profile_file "$1")" <<'PY'
import calendar, json, sys
p = json.load(open(sys.argv[1]))
year, month = (int(part) for part in p["expiry"].split("-"))
expiry = f"{year % 100:02d}{month:02d}{calendar.monthrange(year, month)[1]:02d}"
print(p["applications"][0]["aid"], p["pan"], expiry, p.get("offlinePIN", "1234"))
PY
}

pcscd_start
READER="Virtual PCD 00 00"

emulate() {
    card_start "emulate-$1" "$TAP" emulate --vpcd "$VPCD" --card "$1"
}

# --- a. emvtool: it prints AIDs as [A0 00 ...], the PAN (5A) in digits and 5F24 as YY/MM/DD -----------------------
for card in visa mastercard; do
    read -r aid pan expiry pin < <(profile_facts "$card")
    aid_shown="[$(sed 's/../& /g; s/ $//' <<<"$aid")]"
    expiry_shown="${expiry:0:2}/${expiry:2:2}/${expiry:4:2}"
    emulate "$card"
    for command in listapps "appdata 0" info "-p $pin cap"; do
        # shellcheck disable=SC2086 # the command's words are meant to split
        if ! out=$(timeout 60 "$VENV/bin/emvtool" $command 2>&1); then
            echo "$out" | tail -n 20 >&2
            fail "emvtool $command against $card exited non-zero"
        fi
        case $command in
            *cap)
                grep -Eq '^[0-9]{6,10}$' <<<"$out" || { echo "$out" >&2; fail "emvtool cap ($card): no CAP value"; }
                shown="a CAP value" ;;
            listapps)
                grep -qF "$aid_shown" <<<"$out" || { echo "$out" >&2; fail "emvtool listapps ($card): no AID $aid"; }
                shown="AID as in the profile" ;;
            *)
                grep -qF "$aid_shown" <<<"$out" || { echo "$out" >&2; fail "emvtool $command ($card): no AID $aid"; }
                grep -q "$pan" <<<"$out" || fail "emvtool $command ($card): the profile's PAN not printed"
                grep -qF "$expiry_shown" <<<"$out" || { echo "$out" >&2; fail "emvtool $command ($card): no expiry $expiry_shown"; }
                shown="AID, PAN, expiry as in the profile" ;;
        esac
        echo "emvtool $command ($card): exit 0, $shown"
    done
    # The card checks the PIN for real: a wrong one is refused (VERIFY 63CX), and emvtool says so.
    if out=$(timeout 60 "$VENV/bin/emvtool" -p 0000 cap 2>&1); then fail "emvtool cap ($card): a wrong PIN was accepted"; fi
    grep -q "Invalid PIN" <<<"$out" || { echo "$out" >&2; fail "emvtool cap ($card) with a wrong PIN: no 'Invalid PIN'"; }
    echo "emvtool -p 0000 cap ($card): refused, Invalid PIN"
    card_stop
done

# --- b. the contactless flow through pyscard --------------------------------------------------------------------
for card in visa mastercard; do
    read -r aid pan expiry _ < <(profile_facts "$card")
    emulate "$card"
    timeout 30 "$PY" scripts/interop/contactless_flow.py --reader "$READER" --aid "$aid" --pan "$pan" --expiry "$expiry" \
        || fail "contactless flow against $card"
    card_stop
    # A contact terminal under the default ATR (T=0 and T=1): GPO without a TTQ, records, DDA where the AIP offers
    # it, GENERATE AC with CDOL1 and CDA where the AIP offers it, every signature checked from the EMV books.
    emulate "$card"
    timeout 30 "$PY" scripts/interop/contact_flow.py --reader "$READER" --aid "$aid" \
        --ca-file Sources/CardEmulator/Profiles/test-ca.json || fail "contact flow against $card"
    card_stop
done

# PC/SC tools first ask the reader for the card's UID and ATS (GET DATA FF CA); with vpcd our card answers for the
# reader: under a contactless ATR (PC/SC part 3: 3B 8F 80 01, historical bytes, TCK), with the UID given.
card_start emulate-visa-contactless "$TAP" emulate --vpcd "$VPCD" --card visa \
    --atr 3B8F8001804F0CA0000003060300030000000068 --uid 04A1B2C3D4E5F6
timeout 30 "$PY" scripts/interop/reader_get_data.py --reader "$READER" --uid 04A1B2C3D4E5F6 \
    || fail "PC/SC GET DATA against the contactless ATR"
read -r aid pan expiry _ < <(profile_facts visa)
timeout 30 "$PY" scripts/interop/contactless_flow.py --reader "$READER" --aid "$aid" --pan "$pan" --expiry "$expiry" \
    || fail "contactless flow under the contactless ATR"
card_stop

# --- c. tap read --pcsc against tap emulate --vpcd ------------------------------------------------------------
for card in visa mastercard; do
    emulate "$card"
    json=$(timeout 60 "$TAP" read --pcsc --reader "$READER" --json --issuer-profile "$card") \
        || fail "tap read --pcsc ($card) failed"
    [ "$(json_field outcome <<<"$json")" = onlineRequest ] || { echo "$json" >&2; fail "tap read --pcsc ($card): not Online Request"; }
    [ "$(json_field arqcVerified <<<"$json")" = True ] || { echo "$json" >&2; fail "tap read --pcsc ($card): tap did not verify the ARQC"; }
    "$PY" scripts/interop/verify_arqc.py "$(profile_file "$card")" <<<"$json" \
        || fail "pyemv does not verify the ARQC of tap read --pcsc ($card)"
    echo "tap read --pcsc ($card): $(json_field outcome <<<"$json"), $(json_field oda <<<"$json"), ARQC $(json_field arqc <<<"$json") verified by tap and pyemv"
    card_stop
done

# The test options pin what a reader draws or reads from its clock: two fresh cards read with the same options give
# field 55 with those values and the same ARQC (the card's ATC starts over too).
arqcs=()
for run in 1 2; do
    emulate visa
    json=$(timeout 60 "$TAP" read --pcsc --reader "$READER" --json --unpredictable-number 1CE40A77 \
        --transaction-date 261118 --transaction-time 093000 --terminal-country GB) || fail "tap read --pcsc with test options"
    arqcs+=("$("$PY" -c '
import json, sys
sys.path.insert(0, "scripts/interop")
from verify_arqc import parse_flat_tlv
tags = parse_flat_tlv(bytes.fromhex(json.load(sys.stdin)["iccData"]))
fixed = {"9F37": "1CE40A77", "9A": "261118", "9F21": "093000", "9F1A": "0826"}
wrong = [f"{t}={tags[t].hex().upper()}" for t, v in fixed.items() if t in tags and tags[t].hex().upper() != v]
if wrong or not all(t in tags for t in ("9F37", "9A", "9F1A")):
    sys.exit(f"test options not in field 55: {wrong or sorted(tags)}")
print(tags["9F26"].hex().upper())' <<<"$json")") || fail "tap read --pcsc with test options: field 55"
    card_stop
done
[ "${arqcs[0]}" = "${arqcs[1]}" ] || fail "the same test options gave ARQCs ${arqcs[0]} and ${arqcs[1]}"
echo "tap read --pcsc --unpredictable-number --transaction-date --transaction-time --terminal-country: field 55 carries them, ARQC ${arqcs[0]} twice"

# --- d. tap read --pcsc against real card traces -----------------------------------------------------------------
# What each trace implies for a kernel holding only the shipped test CA keys (the traces' headers; the same outcomes
# as the kernel's in-process replays, Tests/ReaderKernelTests/TraceReplayTests.swift):
#   qvsdc-online   "outcome: online request": ARQC in the GPO response, no records, no ODA -> onlineRequest
#   qvsdc-fdda     ARQC with fDDA data that cannot verify (masked, production CA index) -> declined
#   qvsdc-records  9F4B in a record, masked: fDDA fails, CTQ 0000 -> declined (the header's "online request" is
#                  what the card asked; the kernel test documents why a C-3 kernel declines)
#   mastercard-*   records read up to GENERATE AC, which the trace lacks: the card leaves there (--unrecorded
#                  remove), a communication error -> tryAgain
# Each line: trace, expected outcome, extra trace_card.py arguments.
while read -r name expected extra; do
    trace=Tests/TransactionTests/Traces/$name.trace
    # shellcheck disable=SC2086 # extra is a word list
    card_start "trace-$name" "$PY" scripts/interop/trace_card.py --vpcd "$VPCD" "$trace" $extra
    json=$(timeout 60 "$TAP" read --pcsc --reader "$READER" --json --amount 1.00 --currency AUD) \
        || fail "tap read --pcsc against the trace $name failed"
    got=$(json_field outcome <<<"$json")
    [ "$got" = "$expected" ] || { echo "$json" >&2; fail "trace $name: outcome $got, expected $expected"; }
    echo "tap read --pcsc against trace $name: $got ($(json_field reason <<<"$json"))"
    card_stop
done <<'TRACES'
visa-prepaid-qvsdc-online onlineRequest
visa-prepaid-qvsdc-fdda declined
visa-prepaid-qvsdc-records declined
mastercard-mchip-cda-records tryAgain --unrecorded remove
mastercard-debit-eftpos-cobadged tryAgain --unrecorded remove
TRACES
grep -q '^# outcome: online request' Tests/TransactionTests/Traces/visa-prepaid-qvsdc-online.trace \
    || fail "visa-prepaid-qvsdc-online.trace: the header no longer says online request"

# --- e. the Terminal SDK on the PC/SC reader: an external device, against tap emulate --vpcd ---------------------
# The test is skipped unless TERMINAL_PCSC_READER names a reader; its closing line proves it ran and was approved.
emulate visa
log=$PCSC_DIR/terminal-tests.log
if ! TERMINAL_PCSC_READER="$READER" timeout 300 swift test --skip-build --filter 'TerminalTests.ExternalReaderTests' \
    >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    fail "Terminal sale on the PC/SC reader failed"
fi
line=$(grep -o 'Terminal on PC/SC reader .*' "$log") || { tail -n 30 "$log" >&2; fail "the Terminal's PC/SC test did not run"; }
grep -q ': approved,' <<<"$line" || fail "Terminal on the PC/SC reader: not approved ($line)"
echo "$line"
card_stop

# --- f. Apple VAS: a loyalty pass beside the card ----------------------------------------------------------------
vas_dir=$PCSC_DIR/vas
mkdir -p "$vas_dir"
pass_id=pass.dev.contactless.interop.coffee
"$PY" scripts/interop/vas_reader.py --make-pass "$vas_dir" --pass-type-id "$pass_id" --message member-4242 \
    || fail "vas_reader.py could not make the pass"
card_start emulate-visa-pass "$TAP" emulate --vpcd "$VPCD" --card visa --pass "$vas_dir/pass.json"
out=$(timeout 30 "$PY" scripts/interop/vas_reader.py --reader "$READER" --key "$vas_dir/merchant.pem" \
    --pass-type-id "$pass_id" --message member-4242 --absent pass.dev.contactless.interop.tea) \
    || { echo "$out" >&2; fail "the independent VAS reader did not recover the pass's message"; }
sed '$d' <<<"$out"
cryptogram=$(tail -n 1 <<<"$out")
opened=$("$TAP" vas decrypt --key "$vas_dir/merchant.pem" --pass-type-identifier "$pass_id" "$cryptogram" 2>/dev/null) \
    || fail "tap vas decrypt did not open the cryptogram the Python reader read"
[ "$opened" = member-4242 ] || fail "tap vas decrypt opened '$opened', expected member-4242"
echo "tap vas decrypt of the Python reader's cryptogram: $opened"
json=$(timeout 60 "$TAP" read --pcsc --reader "$READER" --json --vas "$pass_id" --vas-key "$vas_dir/merchant.pem" \
    --issuer-profile visa) || fail "tap read --pcsc --vas failed"
"$PY" -c '
import json, sys
read = json.load(sys.stdin)
vas, transaction = read["vas"], read["transaction"]
entry = vas["entries"][0]
if vas["wallet"] != "ApplePay" or entry["status"] != "9000" or entry.get("message") != "member-4242":
    sys.exit(f"the pass was not read: {vas}")
if transaction["outcome"] != "onlineRequest" or not transaction["arqcVerified"]:
    sys.exit("the payment after the pass did not reach a verified Online Request")
message, outcome = entry["message"], transaction["outcome"]
print(f"tap read --pcsc --vas: pass {message} and {outcome} in one tap")
' <<<"$json" || { echo "$json" >&2; fail "tap read --pcsc --vas"; }
card_stop

# --- g. tap reader --pcsc: the gateway drives a reader on the PC/SC reader -----------------------------------------
# A live `tap serve`, the account linked by its admin, `tap reader --pcsc` on the vpcd reader with `tap emulate`'s
# card in the field; a payment sent over the API as a point of sale does completes on the reader.
serve_dir=$PCSC_DIR/serve
mkdir -p "$serve_dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
merchant=$("$TAP" merchant create --name "Counter Shop" --country DE --currency EUR --json --data-dir "$serve_dir" \
    | json_field id)
admin=$("$TAP" merchant user add --merchant "$merchant" --email admin@counter.example --role admin --json \
    --data-dir "$serve_dir" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d.get("id") or d["user"]["id"])')
key=$("$TAP" merchant key create --merchant "$merchant" --json --data-dir "$serve_dir" | json_field secret)
"$TAP" serve --port "$port" --data-dir "$serve_dir" >"$serve_dir/serve.log" 2>&1 &
serve_pid=$!
reader_pid=
stop_serving() { kill "$serve_pid" ${reader_pid:+"$reader_pid"} 2>/dev/null || true; }
trap 'stop_serving; pcsc_cleanup' EXIT
for _ in $(seq 100); do curl -sf "$base/health" >/dev/null && break; sleep 0.1; done
token=$(curl -sf -X POST "$base/v1/reader-tokens" -H "Authorization: Bearer $key" -d "{\"userId\":\"$admin\"}" \
    | json_field token)
curl -sf -X POST "$base/v1/account-links" -H "Authorization: Bearer $token" -d '{"deviceId":"counter-1"}' >/dev/null \
    || fail "the admin could not link the account"
emulate visa
"$TAP" reader --gateway "$base" --device-id counter-1 --api-key "$key" --user "$admin" --pcsc "$READER" \
    --pin-pad test >"$serve_dir/reader.log" 2>&1 &
reader_pid=$!
online=
for _ in $(seq 200); do
    if curl -sf "$base/v1/readers" -H "Authorization: Bearer $key" | grep -q '"id":"counter-1"[^}]*"online":true'; then
        online=yes; break
    fi
    sleep 0.1
done
[ -n "$online" ] || { cat "$serve_dir/reader.log" >&2; fail "tap reader --pcsc did not come online"; }
command=$(curl -sf -X POST "$base/v1/readers/counter-1/commands" -H "Authorization: Bearer $key" \
    -d '{"type":"payment","amount":1234,"currency":"EUR"}' | json_field id) || fail "the reader took no command"
# The stream replays the reader's events from the first; grep stops at the end (curl then ends on its closed pipe).
ended=$( (timeout 30 curl -sN "$base/v1/readers/counter-1/events?after=0" -H "Authorization: Bearer $key" || true) \
    | grep -m1 '^data: .*"type":"commandEnded"') || { cat "$serve_dir/reader.log" >&2; fail "command $command did not end"; }
"$PY" -c '
import json, sys
event = json.loads(sys.argv[1][len("data: "):])
command = event["command"]
payment = (command.get("result") or {}).get("payment") or {}
if command["status"] != "completed" or payment.get("status") != "succeeded":
    sys.exit(f"the PC/SC reader ended with {command}")
identifier, amount, status = payment["id"], payment["amount"], payment["status"]
print(f"tap reader --pcsc: payment {identifier} of {amount} cents {status} from the vpcd reader")
' "$ended" || fail "tap reader --pcsc"
stop_serving
card_stop
echo "pcsc interop: ok"
