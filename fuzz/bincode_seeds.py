#!/usr/bin/env python3
"""Writes seed inputs for the `bincode_reference` fuzz target: the bincode encoding
(made by `bitwire encode --encoding bincode`) of every valid case of the packed vector
suites `stress` and `limits`, and of a few `examples/game.bw` messages, each after the
byte that selects its type. Usage: python3 bincode_seeds.py BITWIRE_BINARY OUT_DIR"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The fuzz target's schemas, in its order: the selector is the type's position in the
# concatenation of their type lists (`which % total`).
SCHEMAS = [
    ROOT / "examples/game.bw",
    ROOT / "testdata/vectors/stress.bw",
    ROOT / "testdata/vectors/limits.bw",
]
GAME = [
    ("Packet64", {"is_alive": True, "weapon_id": 2, "team_id": 1, "health": 87, "pos_x": -310,
                  "pos_y": 1200, "rotation": 64, "score": 1250}),
    ("Events", {"tick": 5, "events": [{"Chat": {"from": "bob", "text": "gg"}},
                                      {"Kill": {"killer": 1, "victim": 2, "weapon": "Sniper",
                                                "headshot": True}}, "RoundOver"]}),
]


def run(bitwire, *args, stdin=None):
    return subprocess.run([bitwire, *args], input=stdin, capture_output=True, text=True,
                          check=True).stdout


def main() -> None:
    bitwire, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    selector, offset = {}, 0
    for schema in SCHEMAS:
        names = [t["name"] for t in json.loads(run(bitwire, "ir", str(schema)))["types"]]
        for i, name in enumerate(names):
            selector[(schema, name)] = offset + i
        offset += len(names)
    cases = [(SCHEMAS[0], f"game.{ty}", ty, value) for ty, value in GAME]
    for schema in SCHEMAS[1:]:
        suite = json.loads(schema.with_suffix(".json").read_text())
        cases += [(schema, c["id"], c["type"], c["value"]) for c in suite["cases"]
                  if c["result"] == "valid" and "value" in c]
    for schema, name, ty, value in cases:
        encoded = run(bitwire, "encode", "--encoding", "bincode", "--schema", str(schema),
                      "--type", ty, "--hex", stdin=json.dumps(value)).strip()
        (out / name).write_bytes(bytes([selector[(schema, ty)] % 256]) + bytes.fromhex(encoded))
    print(f"{len(cases)} seeds in {out}")


if __name__ == "__main__":
    main()
