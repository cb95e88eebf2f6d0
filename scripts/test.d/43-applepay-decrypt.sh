# `tap applepay decrypt`: the real gala-2021 token verifies and decrypts at its signing time with the PAN and
# cryptogram masked (unless --reveal), and refused tokens exit non-zero naming their ApplePayError code.
set -euo pipefail
cd "$ROOT"
fail() { echo "tap applepay decrypt: $*" >&2; exit 1; }
fixture=Tests/ApplePayTests/Fixtures/gala-2021
args=(--token "$fixture/token.json" --cert "$fixture/certificate.pem" --key "$fixture/private_key.pem")
at=2021-09-01T19:05:00Z
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

out=$("$TAP" applepay decrypt "${args[@]}" --at "$at") || fail "the real token was refused: $out"
echo "$out"
grep -q '535375\*\*\*\*\*\*1169, expires 2024-09-30' <<<"$out" || fail "no masked PAN and expiry"
grep -q '1.00 USD (100 minor units, currency 840)' <<<"$out" || fail "no amount"
if grep -q '5353756319181169\|AMwBRjPWDnAgAA7Rls7mAoABFA==' <<<"$out"; then fail "PAN or cryptogram shown without --reveal"; fi

json=$("$TAP" applepay decrypt "${args[@]}" --at "$at" --json --reveal)
python3 -c 'import json,sys; p=json.loads(sys.argv[1])["payload"]; assert p["applicationPrimaryAccountNumber"]=="5353756319181169" and p["paymentData"]["onlinePaymentCryptogram"]=="AMwBRjPWDnAgAA7Rls7mAoABFA==", p' "$json" \
    || fail "--json --reveal lacks the known PAN or cryptogram"

# Refusals: each must exit non-zero and print its code.
refused() {
    local code=$1; shift
    if out=$("$TAP" applepay decrypt "$@" --json 2>&1); then fail "accepted a token that should be $code"; fi
    python3 -c 'import json,sys; assert json.loads(sys.argv[1])["error"]["code"]==sys.argv[2]' "$out" "$code" \
        || fail "expected $code, printed: $out"
    echo "  $code: refused"
}
refused tokenExpired "${args[@]}" --at 2021-09-01T19:10:00Z
refused tokenExpired "${args[@]}"
refused untrustedRoot "${args[@]}" --at "$at" --root "$fixture/certificate.pem"
python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); t["header"]["transactionId"]="00"+t["header"]["transactionId"][2:]; json.dump(t, open(sys.argv[2],"w"))' \
    "$fixture/token.json" "$work/altered.json"
refused messageDigestMismatch --token "$work/altered.json" --cert "$fixture/certificate.pem" --key "$fixture/private_key.pem" --at "$at"
other=Tests/ApplePayTests/Fixtures/sepuka-2019
refused unknownPublicKeyHash --token "$fixture/token.json" --cert "$other/certificate.pem" --key "$other/private_key.pem" --at "$at"
echo "tap applepay decrypt: ok"
