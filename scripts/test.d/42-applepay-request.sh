# `tap applepay request --validate`: the shipped example is valid (exit 0, "valid" and its total), and copies
# broken one rule at a time exit non-zero with the rule's error code.
set -euo pipefail
cd "$ROOT"
fail() { echo "tap applepay request: $*" >&2; exit 1; }
example=Examples/ApplePay/payment-request.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

out=$("$TAP" applepay request --validate "$example") || fail "the example is not valid: $out"
echo "$out"
grep -qx 'valid' <<<"$out" || fail "no \"valid\" line"
grep -Eq '^ +total +290\.29 USD \(pending\)$' <<<"$out" || fail "the summary lacks the example's total"

# Each case: a Python expression that breaks the parsed example `r`, the code the CLI must print, and any flags.
check_broken() {
    local code=$1 edit=$2
    shift 2
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); $edit; json.dump(r, open(sys.argv[2], 'w'))" \
        "$example" "$work/broken.json"
    if out=$("$TAP" applepay request --validate "$work/broken.json" "$@" 2>&1); then
        fail "accepted a request broken for $code"
    fi
    grep -q "invalid: $code: " <<<"$out" || fail "broken for $code, printed: $out"
    echo "  $code: rejected"
}
# PassKit lets the total differ from the sum of the items; --strict does not.
check_broken totalMismatch 'r["paymentSummaryItems"][-1]["amount"] = "290.30"' --strict
"$TAP" applepay request --validate "$work/broken.json" | grep -qx 'valid' \
    || fail "refused a total that is not the sum without --strict"
echo "  totalMismatch: accepted without --strict"
check_broken tooManyFractionDigits 'r["paymentSummaryItems"][0]["amount"] = "249.001"'
check_broken invalidCurrencyCode 'r["currencyCode"] = "XYZ"'
check_broken unknownNetwork 'r["supportedNetworks"].append("Diners")'
check_broken tokenContextsExceedTotal 'r["multiTokenContexts"][1]["amount"] = "24.50"'
check_broken conflictingPaymentTypes 'r["deferredPaymentRequest"] = {"paymentDescription": "x", "managementURL": "https://x.example", "deferredBilling": {"label": "x", "amount": "1.00", "deferredDate": "2027-01-01T00:00:00Z"}}'
check_broken malformedJSON 'r["paymentSummaryItems"][0]["amount"] = 249.0'
if "$TAP" applepay request --validate "$work/missing.json" >/dev/null 2>&1; then fail "accepted a missing file"; fi
echo "tap applepay request: ok"
