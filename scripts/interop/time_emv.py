#!/usr/bin/env python3
"""Times the independent reader on the same card, for comparison with `tap bench pcsc`:
  - `emvtool appdata 0` as a command, N times (wall clock: includes Python start-up and the PSE search), and
  - the same steps in process through the emv library (PSE, SELECT, GPO 83 00, READ RECORD per AFL), N times.
Prints one JSON object: count, median and p99 in milliseconds for each.

usage: time_emv.py [--count N] [--reader-index I]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

warnings.filterwarnings("ignore")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def summary(values):
    return {"count": len(values), "medianMs": round(statistics.median(values), 3),
            "p99Ms": round(percentile(values, 99), 3), "minMs": round(min(values), 3)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--reader-index", type=int, default=0)
    args = parser.parse_args()
    emvtool = os.path.join(os.path.dirname(sys.executable), "emvtool")

    command = []
    for _ in range(args.count):
        start = time.perf_counter()
        done = subprocess.run([emvtool, "-r", str(args.reader_index), "appdata", "0"], capture_output=True,
                              timeout=60)
        command.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            sys.exit(f"time_emv: emvtool appdata 0 exited {done.returncode}: {done.stdout.decode()[-300:]}")

    import smartcard.System
    from emv.card import Card
    from emv.protocol.data import Tag

    in_process = []
    for _ in range(args.count):
        start = time.perf_counter()
        connection = smartcard.System.readers()[args.reader_index].createConnection()
        card = Card(connection)
        apps = card.list_applications()
        card.select_application(apps[0][Tag.ADF_NAME])
        options = card.get_processing_options()
        card.get_application_data(options["AFL"])
        connection.disconnect()
        in_process.append((time.perf_counter() - start) * 1000)

    print(json.dumps({"emvtoolAppdata": summary(command), "emvLibraryAppdata": summary(in_process)}))


if __name__ == "__main__":
    main()
