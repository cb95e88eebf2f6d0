#!/usr/bin/env bash
# Benchmark through pcscd (issue 4, part 6): `tap bench pcsc` (200 purchases of the reader kernel against
# `tap emulate --vpcd`, whole purchase and each APDU round trip) and, on the same card in the same run, emvtool
# appdata 0 (PSE, SELECT, GPO, records) 20 times as a command and 20 times in process through the emv library.
# Targets: median whole purchase <= 20 ms, p99 <= 2x median. Both are printed as met or MISSED. The step fails only on
# a gross miss, a median or a p99 over 40 ms (twice the 20 ms budget): the median is well under a millisecond here, so
# "p99 <= 2x median" means a p99 under ~1.5 ms, which one descheduling on this shared 2-core machine (builds, other
# jobs) breaks; failing on it would make the step flaky without saying anything about the code.
# Override the count with PCSC_BENCH_COUNT.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
PY=$VENV/bin/python
source scripts/test.d/lib/pcscd.sh
fail() { echo "pcsc bench: $*" >&2; exit 1; }
count=${PCSC_BENCH_COUNT:-200}
READER="Virtual PCD 00 00"

pcscd_start
# Enough limited-use keys for the warm-up, the purchases and emvtool's GPOs.
card_start emulate-bench "$TAP" emulate --vpcd "$VPCD" --card visa --keys $((count + 100))
bench=$(timeout 240 "$TAP" bench pcsc --reader "$READER" --count "$count" --json) || fail "tap bench pcsc failed"
emv=$(timeout 120 "$PY" scripts/interop/time_emv.py --count 20) || fail "timing emvtool failed"
"$PY" - "$bench" "$emv" <<'PY'
import json, sys
bench, emv = json.loads(sys.argv[1]), json.loads(sys.argv[2])
purchase, apdu = bench["purchase_ms"], bench["apdu_ms"]
print(f"tap bench pcsc: {bench['purchases']} purchases, {bench['apdus']} APDUs, reader {bench['reader']} ({bench['transport']}), outcomes {bench['outcomes']}")
print(f"  whole purchase   median {purchase['median']:.3f} ms  p99 {purchase['p99']:.3f} ms  (min {purchase['min']:.3f}, max {purchase['max']:.3f})")
print(f"  APDU round trip  median {apdu['median']:.3f} ms  p99 {apdu['p99']:.3f} ms  (min {apdu['min']:.3f}, max {apdu['max']:.3f})")
for name, label in (("emvtoolAppdata", "emvtool appdata 0 (command)"), ("emvLibraryAppdata", "emv library appdata (in process)")):
    s = emv[name]
    print(f"  {label:34} median {s['medianMs']:.3f} ms  p99 {s['p99Ms']:.3f} ms  over {s['count']}")
median_ok = purchase["median"] <= 20
p99_ok = purchase["p99"] <= 2 * purchase["median"]
print(f"  target median <= 20 ms: {'met' if median_ok else 'MISSED'}; target p99 <= 2x median "
      f"({2 * purchase['median']:.3f} ms): {'met' if p99_ok else 'MISSED'}")
if bench["outcomes"].get("onlineRequest", 0) != bench["purchases"]:
    sys.exit(f"pcsc bench: not every purchase went online: {bench['outcomes']}")
if purchase["median"] > 40 or purchase["p99"] > 40:
    sys.exit("pcsc bench: gross miss (median or p99 of the whole purchase over 40 ms)")
PY
