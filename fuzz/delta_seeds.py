#!/usr/bin/env python3
"""Writes seed inputs for the `delta_world` fuzz target from the delta vectors
(testdata/vectors/delta/delta.json): for every case with bytes, the message selector,
the length of the baseline's full encoding (made by `bitwire encode`), that encoding,
then the delta. Usage: python3 delta_seeds.py BITWIRE_BINARY OUT_DIR"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = ROOT / "testdata/vectors/delta"
# The fuzz target's selector: `which % 4`.
MESSAGES = {"Scalars": 0, "Composite": 1, "World": 2, "Keys": 3}


def main() -> None:
    bitwire, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    suite = json.loads((VECTORS / "delta.json").read_text())
    written = 0
    for case in suite["cases"]:
        if "bytes" not in case:
            continue
        full = subprocess.run(
            [bitwire, "encode", "--schema", str(VECTORS / "delta.bw"), "--type", case["type"], "--hex"],
            input=json.dumps(case["baseline"]),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        baseline = bytes.fromhex(full)
        if len(baseline) > 255:
            continue
        seed = bytes([MESSAGES[case["type"]], len(baseline)]) + baseline + bytes.fromhex(case["bytes"])
        (out / case["id"]).write_bytes(seed)
        written += 1
    print(f"{written} seeds in {out}")


if __name__ == "__main__":
    main()
