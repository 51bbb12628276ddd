#!/usr/bin/env python3
"""Writes diff-sample.jsonl: a small differential corpus in the format the lead's
corpus uses (see conformance/go/README.md), made with the reference codec (the
`bitwire encode` / `decode` CLI). It tests the Go corpus reader; the real corpus comes
from the Rust reference codec and is passed in BITWIRE_DIFF_CORPUS.

    python3 testdata/make_diff_sample.py $BITWIRE > testdata/diff-sample.jsonl
"""
import json, random, re, subprocess, sys, glob, os

bw = sys.argv[1]
root = os.path.join(os.path.dirname(__file__), "..", "..", "..")
rng = random.Random(42)

def run(args, stdin):
    p = subprocess.run([bw] + args, input=stdin.encode(), capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()

ERR = re.compile(r"failed: (\w+) at bit (\d+)(?: in `(.*)`)?")

def decode(schema, ty, hexin):
    rc, out, err = run(["decode", "--schema", schema, "--type", ty, "--hex"], hexin)
    if rc == 0:
        return {"value": json.loads(out)}
    m = ERR.search(err)
    return {"error": {"kind": m.group(1), "bit": int(m.group(2)), "path": m.group(3) or ""}}

lines = []
for path in sorted(glob.glob(os.path.join(root, "testdata", "vectors", "*.json"))):
    doc = json.load(open(path))
    schema = os.path.join(root, "testdata", "vectors", doc["schema"])
    valid = [c for c in doc["cases"] if c["result"] == "valid"]
    for c in rng.sample(valid, min(4, len(valid))):
        lines.append({"suite": doc["suite"], "type": c["type"], "value": c["value"], "bytes": c["bytes"]})
        b = bytearray.fromhex(c["bytes"])
        mutations = [b[:-1], b + b"\x00"]
        if b:
            flipped = bytearray(b)
            flipped[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
            mutations.append(flipped)
        for m in mutations:
            h = bytes(m).hex()
            lines.append({"suite": doc["suite"], "type": c["type"], "input": h,
                          "outcome": decode(schema, c["type"], h)})
for line in lines:
    print(json.dumps(line, ensure_ascii=False))
