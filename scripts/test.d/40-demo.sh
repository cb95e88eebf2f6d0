# The README's main command, end to end: every step succeeds, the checks come out right, and no full PAN leaks.
set -euo pipefail
cd "$ROOT"
out=$("$TAP" demo)
echo "$out" | tail -n 25
expect() { grep -Eq "$1" <<<"$out" || { echo "tap demo: expected /$1/" >&2; exit 1; }; }
expect '^ +ARQC verifies +yes$'
expect '^ +ARQC verifies for amount \+ 1 minor unit +no$'
expect '^ +Card accepts the ARPC +yes$'
expect '^ +57 Track 2 Equivalent Data .*\(masked\)$'
for pan in 4761739001010010 4921828094896752; do
    if grep -q "$pan" <<<"$out"; then echo "tap demo printed a full PAN" >&2; exit 1; fi
done
"$TAP" demo --amount 1000 --currency JPY --country JP >/dev/null
if "$TAP" demo --currency XYZ >/dev/null 2>&1; then echo "tap demo accepted an unknown currency" >&2; exit 1; fi
echo "tap demo: ok"
