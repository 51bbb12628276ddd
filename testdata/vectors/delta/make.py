#!/usr/bin/env python3
"""Writes delta.json, the shared vectors of the delta encoding (docs/spec.md §12).

Each case is written here by hand: valid cases as (baseline, value), whose bytes come
from the reference codec (`bitwire delta encode`) and are decoded back to check; invalid
deltas as bit strings built with the rules of §12 by the `Bits` builder below, with the
error (kind, bit, path) this file states and the reference codec must agree with; encode
errors as (baseline, value) with the kind and path stated here. Any disagreement stops
the script, so the vectors are the spec as read twice: once here, once in the codec.

    cargo build -p bitwire-compiler
    python3 testdata/vectors/delta/make.py [path/to/bitwire]
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
BITWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "bitwire")
SCHEMA = os.path.join(HERE, "delta.bw")


def run(args, stdin):
    p = subprocess.run([BITWIRE, *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def with_baseline(baseline, fn):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(baseline, f)
        name = f.name
    try:
        return fn(name)
    finally:
        os.unlink(name)


def encode(ty, baseline, value):
    return with_baseline(baseline, lambda b: run(
        ["delta", "encode", "--schema", SCHEMA, "--type", ty, "--baseline", b, "--hex"],
        json.dumps(value)))


def decode(ty, baseline, hexbytes):
    return with_baseline(baseline, lambda b: run(
        ["delta", "decode", "--schema", SCHEMA, "--type", ty, "--baseline", b, "--hex"],
        hexbytes))


def normalize(ty, value):
    """The value through the full codec (encode then decode): the JSON mapping's form."""
    code, out, err = run(["encode", "--schema", SCHEMA, "--type", ty, "--hex"], json.dumps(value))
    assert code == 0, (ty, value, err)
    code, out, err = run(["decode", "--schema", SCHEMA, "--type", ty, "--hex"], out)
    assert code == 0, err
    return json.loads(out)


ERROR = re.compile(r"failed: (\w+) at bit (\d+)(?: in `([^`]*)`)?")


def parse_error(stderr):
    m = ERROR.search(stderr)
    assert m, stderr
    return {"kind": m.group(1), "bit": int(m.group(2)), "path": m.group(3) or ""}


class Bits:
    """A bit string built by the rules of spec §1 and §12."""

    def __init__(self):
        self.bits = []

    def u(self, v, w):
        self.bits += [(v >> i) & 1 for i in range(w)]
        return self

    def bit(self, b):
        return self.u(b, 1)

    def diff(self, z, w):
        """§12.4: the difference code of zigzag value z (≥ 1) of a w-bit scalar."""
        n = z.bit_length()
        self.u(n - 1, (w - 1).bit_length())
        return self.u(z & ((1 << (n - 1)) - 1), n - 1)

    def golomb(self, x):
        """§12.5: Exp-Golomb."""
        k = (x + 1).bit_length() - 1
        self.bits += [0] * k + [1]
        return self.u(x + 1 - (1 << k), k)

    def hex(self, extra=""):
        out = bytearray((len(self.bits) + 7) // 8)
        for p, b in enumerate(self.bits):
            out[p >> 3] |= b << (p & 7)
        return out.hex() + extra

    def pos(self):
        return len(self.bits)


CASES = []


def valid(cid, ty, baseline, value, note=None, one_way=False):
    # Baselines are values a receiver holds: decoded ones, on the quantization grid.
    baseline = normalize(ty, baseline)
    code, out, err = encode(ty, baseline, value)
    assert code == 0, (cid, err)
    hexbytes = out.strip()
    code, back, err = decode(ty, baseline, hexbytes)
    assert code == 0, (cid, err)
    if not one_way:
        assert json.loads(back) == normalize(ty, value), (cid, back)
    case = {"id": f"delta.{cid}", "type": ty, "baseline": baseline, "value": value,
            "bytes": hexbytes, "result": "encodes" if one_way else "valid"}
    if note:
        case["note"] = note
    CASES.append(case)
    return hexbytes


def invalid(cid, ty, baseline, hexbytes, kind, bit, path, note=None):
    baseline = normalize(ty, baseline)
    code, out, err = decode(ty, baseline, hexbytes)
    assert code == 1, (cid, code, out, err)
    got = parse_error(err)
    want = {"kind": kind, "bit": bit, "path": path}
    assert got == want, (cid, got, want)
    case = {"id": f"delta.{cid}", "type": ty, "baseline": baseline, "bytes": hexbytes,
            "result": "invalid", "error": want}
    if note:
        case["note"] = note
    CASES.append(case)


def encode_error(cid, ty, baseline, value, kind, path, note=None):
    code, out, err = encode(ty, baseline, value)
    assert code == 1, (cid, code, out, err)
    got = parse_error(err)
    assert (got["kind"], got["path"]) == (kind, path), (cid, got)
    case = {"id": f"delta.{cid}", "type": ty, "baseline": baseline, "value": value,
            "result": "invalid", "error": {"kind": kind, "path": path}}
    if note:
        case["note"] = note
    CASES.append(case)


def changed(base, **fields):
    v = copy.deepcopy(base)
    v.update(fields)
    return v


# --- Scalars -------------------------------------------------------------------------

S0 = {"flag": False, "small": 0, "byte": 0, "signed": 0, "wide": "0", "swide": "0",
      "bounded": 0, "fixed": 7, "quant": 0.0, "quant64": 0.0, "single": 0.0, "double": 0.0,
      "kind": "Player", "team": "Red", "vu": 0, "vi": "0"}
# The changed bits of Scalars, in field order (`fixed` is zero-width: no bit).
SCALAR_FIELDS = ["flag", "small", "byte", "signed", "wide", "swide", "bounded", "quant",
                 "quant64", "single", "double", "kind", "team", "vu", "vi"]

valid("scalars.same", "Scalars", S0, S0, "15 changed bits, all zero; `fixed` has none.")
valid("scalars.flag", "Scalars", S0, changed(S0, flag=True),
      "A bool flips in its changed bit alone: w = 1, no length, no bits.")
valid("scalars.small_plus_one", "Scalars", changed(S0, small=3), changed(S0, small=4))
valid("scalars.small_wraps", "Scalars", changed(S0, small=7), changed(S0, small=0),
      "7 to 0 in 3 bits is +1 mod 8.")
valid("scalars.byte_minus_one", "Scalars", S0, changed(S0, byte=255), "0 to 255 is -1: z = 1.")
valid("scalars.byte_half", "Scalars", S0, changed(S0, byte=128),
      "+128 is -128 in 8 bits: z = 255, n = 8: 3 + 7 bits.")
valid("scalars.signed_extremes", "Scalars", changed(S0, signed=-64), changed(S0, signed=63))
valid("scalars.wide_minus_one", "Scalars", S0, changed(S0, wide="18446744073709551615"))
valid("scalars.wide_half", "Scalars", S0, changed(S0, wide="9223372036854775808"),
      "The longest difference code of a u64: z = 2^64 - 1, 6 + 63 bits.")
valid("scalars.swide_extremes", "Scalars", changed(S0, swide="-9223372036854775808"),
      changed(S0, swide="9223372036854775807"))
valid("scalars.bounded_span", "Scalars", changed(S0, bounded=-1000), changed(S0, bounded=1000),
      "Wire values v - MIN: 0 to 2000.")
valid("scalars.quant", "Scalars", changed(S0, quant=-1.0), changed(S0, quant=1.0))
valid("scalars.quant_same_grid_point", "Scalars", S0, changed(S0, quant=0.0001), one_way=True,
      note="0.0001 quantizes to the baseline's q: unchanged on the wire, decodes to the baseline.")
valid("scalars.quant64_step", "Scalars", changed(S0, quant64=50.0), changed(S0, quant64=50.5))
valid("scalars.single_negative_zero", "Scalars", S0, changed(S0, single=-0.0),
      "0.0 and -0.0 differ on the wire.")
valid("scalars.single_nan_same", "Scalars", changed(S0, single="NaN"), changed(S0, single="NaN"))
valid("scalars.single_next", "Scalars", changed(S0, single=1.0),
      changed(S0, single=1.0000001192092896), "The next f32 after 1.0: one step of the IEEE bits.")
valid("scalars.double_infinity", "Scalars", S0, changed(S0, double="Infinity"))
valid("scalars.kind", "Scalars", S0, changed(S0, kind="Crate"), "Tag 0 to 2 in 2 bits: -2.")
valid("scalars.team", "Scalars", S0, changed(S0, team="Blue"))
valid("scalars.varint_unsigned", "Scalars", S0, changed(S0, vu=4294967295),
      "A varu32's wire value is its value in w = 32 bits: -1, z = 1.")
valid("scalars.varint_signed", "Scalars", changed(S0, vi="-1"), changed(S0, vi="1"),
      "A vari64's wire value is its zigzag: 1 to 2.")
S1 = {"flag": True, "small": 5, "byte": 200, "signed": -3, "wide": "12345678901234",
      "swide": "-42", "bounded": -7, "fixed": 7, "quant": 0.5, "quant64": 99.5,
      "single": 3.5, "double": -2.25, "kind": "Bullet", "team": "Blue", "vu": 300, "vi": "-9"}
valid("scalars.all", "Scalars", S0, S1)
valid("scalars.all_back", "Scalars", S1, S0)

# Invalid scalar deltas, built bit by bit: the changed bits of the fields before.
def scalar_prefix(field):
    b = Bits()
    for f in SCALAR_FIELDS[:SCALAR_FIELDS.index(field)]:
        b.bit(0)
    return b.bit(1)

invalid("scalars.empty", "Scalars", S0, "", "Truncated", 0, "flag")
b = scalar_prefix("small")
start = b.pos()
b.u(3, 2)
invalid("scalars.length_too_long", "Scalars", S0, b.hex(), "OutOfRange", start, "small",
        "A u3's length n - 1 = 3 is not below w = 3.")
b = scalar_prefix("bounded")
start = b.pos()
b.diff(2, 11)
for _ in SCALAR_FIELDS[SCALAR_FIELDS.index("bounded") + 1:]:
    b.bit(0)
invalid("scalars.bounded_past_max", "Scalars", changed(S0, bounded=1000), b.hex(), "OutOfRange",
        start, "bounded", "+1 from v - MIN = 2000 is 2001, above MAX - MIN.")
b = scalar_prefix("quant64")
start = b.pos()
b.diff(2, 8)
invalid("scalars.quant64_past_steps", "Scalars", changed(S0, quant64=100.0), b.hex(),
        "OutOfRange", start, "quant64", "q = 201 is above STEPS = 200.")
b = scalar_prefix("single")
start = b.pos()
b.diff(2, 32)
invalid("scalars.single_nan_payload", "Scalars", changed(S0, single="NaN"), b.hex(),
        "NonCanonical", start, "single", "+1 from the canonical NaN is another NaN.")
b = scalar_prefix("kind")
start = b.pos()
b.diff(2, 2)
invalid("scalars.kind_undeclared", "Scalars", changed(S0, kind="Crate"), b.hex(), "InvalidEnum",
        start, "kind", "Tag 2 + 1 = 3: no such variant.")
b = scalar_prefix("team")
start = b.pos()
b.diff(1, 2)
invalid("scalars.team_zero", "Scalars", S0, b.hex(), "InvalidEnum", start, "team",
        "Red (1) - 1 = 0: Team declares 1 and 2 only.")
invalid("scalars.padding", "Scalars", S0, Bits().u(1 << 15, 16).hex(), "InvalidPadding", 15, "",
        "15 bits of delta, then a one in the padding.")
invalid("scalars.trailing", "Scalars", S0, "000000", "TrailingData", 16, "")

encode_error("scalars.encode_out_of_range", "Scalars", S0, changed(S0, byte=256), "OutOfRange",
             "byte")
encode_error("scalars.encode_baseline_out_of_range", "Scalars", changed(S0, bounded=5000),
             changed(S0, bounded=1), "OutOfRange", "bounded",
             "The baseline's wire value is needed, so its range is checked too.")

# --- Composite -----------------------------------------------------------------------

V = lambda x, y: {"x": x, "y": y}
C0 = {"pos": V(0.0, 0.0), "path": [V(0.0, 0.0), V(1.0, 1.0), V(2.0, 2.0)],
      "raw": [0, 0, 0, 0], "target": None, "action": "Idle", "label": "", "blob": "",
      "tags": []}
valid("composite.same", "Composite", C0, C0)
valid("composite.nested_one_field", "Composite", C0, changed(C0, pos=V(0.0625, 0.0)),
      "pos: changed, x: changed (+1 step), y: unchanged.")
valid("composite.array_one_element", "Composite", C0,
      changed(C0, path=[V(0.0, 0.0), V(1.0, 1.5), V(2.0, 2.0)]))
valid("composite.bytes_array", "Composite", C0, changed(C0, raw=[0, 255, 0, 0]))
valid("composite.optional_appears", "Composite", C0, changed(C0, target=5))
valid("composite.optional_goes", "Composite", changed(C0, target=5), C0)
valid("composite.optional_value", "Composite", changed(C0, target=5), changed(C0, target=6),
      "An optional is sent whole when it changed: presence bit and value.")
valid("composite.union_variant", "Composite", C0, changed(C0, action={"Move": V(1.0, 2.0)}))
valid("composite.union_payload", "Composite", changed(C0, action={"Move": V(1.0, 2.0)}),
      changed(C0, action={"Move": V(1.0, 2.5)}), "A union is sent whole when it changed.")
valid("composite.strings", "Composite", C0, changed(C0, label="héllo", blob="0102", tags=[1, 2]))
valid("composite.strings_back", "Composite", changed(C0, label="héllo", blob="0102", tags=[1, 2]),
      C0)

b = Bits().bit(1).bit(0).bit(0)
invalid("composite.struct_all_unchanged", "Composite", C0, b.hex(), "NonCanonical", 3, "pos",
        "pos is marked changed, but neither x nor y is.")
b = Bits().bit(0).bit(1).bit(0).bit(0).bit(0)
invalid("composite.array_all_unchanged", "Composite", C0, b.hex(), "NonCanonical", 5, "path")
b = Bits().bit(0).bit(0).bit(0).bit(1).bit(1).u(5, 12)
invalid("composite.replace_equal", "Composite", changed(C0, target=5), b.hex(), "NonCanonical",
        b.pos(), "target", "A full encoding equal to the baseline's.")
b = Bits().bit(0).bit(0).bit(0).bit(0).bit(1)
start = b.pos()
b.u(3, 2)
invalid("composite.union_undeclared", "Composite", C0, b.hex(), "InvalidEnum", start, "action")
b = Bits().bit(0).bit(0).bit(0).bit(0).bit(0).bit(1)
start = b.pos()
b.u(1, 6).u(0xff, 8)
invalid("composite.label_utf8", "Composite", C0, b.hex(), "InvalidUtf8", start, "label")
b = Bits().bit(0).bit(0).bit(0).bit(0).bit(0).bit(1)
start = b.pos()
b.u(33, 6)
invalid("composite.label_too_long", "Composite", C0, b.hex(), "InvalidLength", start, "label")

# --- World ---------------------------------------------------------------------------

def entity(eid, x=0.0, kind="Player", name="", items=None, alive=True, yaw=0.0):
    return {"id": eid, "kind": kind, "pos": V(x, 0.0), "yaw": yaw, "alive": alive,
            "name": name, "items": items or []}

W0 = {"tick": 100, "entities": [entity(1, name="ann", items=[{"slot": -1, "count": 3}]),
                                entity(5, kind="Bullet"), entity(9, kind="Crate", x=-3.0)]}
E = W0["entities"]
valid("world.same", "World", W0, W0, "Two changed bits: an idle snapshot is one byte.")
valid("world.tick", "World", W0, changed(W0, tick=101), "A u32 tick + 1: 1 + 5 + 1 bits.")
valid("world.one_moved", "World", W0,
      changed(W0, entities=[E[0], entity(5, kind="Bullet", x=0.125), E[2]]),
      "Gap 1, op changed, the element's row without its key.")
valid("world.remove_first", "World", W0, changed(W0, entities=E[1:]))
valid("world.remove_middle", "World", W0, changed(W0, entities=[E[0], E[2]]))
valid("world.remove_last", "World", W0, changed(W0, entities=E[:2]))
valid("world.remove_all", "World", W0, changed(W0, entities=[]))
valid("world.add_end", "World", W0, changed(W0, entities=E + [entity(12)]))
valid("world.add_between", "World", W0, changed(W0, entities=[E[0], entity(3), E[1], E[2]]),
      "Added elements are merged by key.")
valid("world.add_to_empty", "World", changed(W0, entities=[]), W0)
valid("world.replace_same_key", "World", W0,
      changed(W0, entities=[E[0], entity(5, kind="Crate", name="new", alive=False), E[2]]),
      "Same key, other values: a changed element, never remove + add.")
valid("world.nested_keyed", "World", W0,
      changed(W0, entities=[entity(1, name="ann", items=[{"slot": -1, "count": 2},
                                                         {"slot": 4, "count": 1}]), E[1], E[2]]),
      "A keyed list inside a changed element.")
valid("world.everything", "World", W0,
      {"tick": 160, "entities": [entity(2, x=7.0), entity(5, kind="Bullet", x=1.0, yaw=90.0),
                                 entity(40, name="zed")]})

# Invalid keyed-list deltas. Prefix: tick unchanged (0), entities changed (1).
def world_prefix():
    return Bits().bit(0).bit(1)

b = world_prefix()
start = b.pos()
b.golomb(4)
invalid("world.gap_past_end", "World", W0, b.hex(), "OutOfRange", start, "entities",
        "A gap of 4 with 3 baseline elements.")
b = world_prefix()
start = b.pos()
b.u(0, 3)
invalid("world.gap_too_many_zeros", "World", W0, b.hex(), "OutOfRange", start, "entities",
        "At most bits_for(3 + 1) - 1 = 2 leading zeros for a gap over 3 elements.")
# Gap 0, op 0 (changed), then the six changed bits of the row without its key (kind, pos,
# yaw, alive, name, items), all zero.
b = world_prefix().golomb(0).bit(0).u(0, 6)
invalid("world.changed_element_unchanged", "World", W0, b.hex(), "NonCanonical", b.pos(),
        "entities[0]",
        "An element marked changed whose row has no changed bit.")
b = world_prefix().golomb(3).golomb(0)
invalid("world.no_change", "World", W0, b.hex(), "NonCanonical", b.pos(), "entities",
        "A keyed list marked changed with no event and nothing added.")
b = world_prefix().golomb(3)
start = b.pos()
b.golomb(62)
invalid("world.too_many_added", "World", W0, b.hex(), "InvalidLength", start, "entities",
        "3 kept + 62 added > max 64.")
b = world_prefix().golomb(3)
start = b.pos()
b.golomb(5)
invalid("world.added_truncated", "World", W0, b.hex(), "Truncated", start, "entities",
        "5 added elements of at least 64 bits do not fit.")
b = world_prefix().golomb(3)
start = b.pos()
b.bits += [0] * 64
invalid("world.count_too_many_zeros", "World", W0, b.hex(), "OutOfRange", start, "entities")

def full_entity(b, eid):
    """The full encoding (§5) of entity(eid), appended to b."""
    code, out, err = run(["encode", "--schema", SCHEMA, "--type", "World", "--hex"],
                         json.dumps({"tick": 0, "entities": [entity(eid)]}))
    assert code == 0, err
    data = bytes.fromhex(out.strip())
    bits = [(data[p >> 3] >> (p & 7)) & 1 for p in range(len(data) * 8)]
    # World = tick (32 bits), length (7 bits), then the entity.
    entity_bits = bits[39:39 + ENTITY_BITS]
    b.bits += entity_bits
    return b

ENTITY_BITS = 12 + 2 + 15 + 15 + 8 + 1 + 5 + 3   # id, kind, pos, yaw, alive, name "", items []
b = world_prefix().golomb(3).golomb(1)
start = b.pos()
full_entity(b, 5)
invalid("world.added_key_present", "World", W0, b.hex(), "InvalidKey", start, "entities[0]",
        "An added element with a key the baseline has.")
b = world_prefix().golomb(3).golomb(2)
full_entity(b, 20)
start = b.pos()
full_entity(b, 15)
invalid("world.added_keys_descending", "World", W0, b.hex(), "InvalidKey", start, "entities[1]")
unsorted = changed(W0, entities=[E[1], E[0], E[2]])
b = world_prefix().golomb(3).golomb(0)
invalid("world.baseline_unsorted", "World", unsorted, b.hex(), "InvalidKey", 0, "entities",
        "The baseline of a changed keyed list must be ascending by key.")
encode_error("world.encode_value_unsorted", "World", W0, unsorted, "InvalidKey", "entities")
encode_error("world.encode_value_duplicate", "World", W0,
             changed(W0, entities=[E[0], E[0], E[2]]), "InvalidKey", "entities")
encode_error("world.encode_baseline_unsorted", "World", unsorted, changed(W0, tick=1),
             "InvalidKey", "entities")
valid("world.unchanged_unsorted_is_not_checked", "World", unsorted, changed(unsorted, tick=101),
      "A keyed list equal to its baseline is not walked, so not checked.")

# --- Keys ----------------------------------------------------------------------------

K0 = {"by_team": [{"team": "Red", "score": 1}], "by_signed": [{"k": -5, "v": 1}, {"k": 3, "v": 2}]}
valid("keys.enum_add", "Keys", K0,
      changed(K0, by_team=[{"team": "Red", "score": 1}, {"team": "Blue", "score": 0}]),
      "Enum keys order by variant value: Red = 1 < Blue = 2.")
valid("keys.enum_remove", "Keys", K0, changed(K0, by_team=[]))
valid("keys.signed_front", "Keys", K0,
      changed(K0, by_signed=[{"k": -7, "v": 0}, {"k": -5, "v": 1}, {"k": 3, "v": 9}]),
      "Signed keys order numerically; an unbounded keyed list.")
encode_error("keys.enum_unsorted", "Keys", K0,
             changed(K0, by_team=[{"team": "Blue", "score": 0}, {"team": "Red", "score": 1}]),
             "InvalidKey", "by_team")

ids = [c["id"] for c in CASES]
assert len(ids) == len(set(ids)), "duplicate ids"
suite = {
    "suite": "delta",
    "schema": "delta.bw",
    "description": "The delta encoding (docs/spec.md §12): each case encodes `value` against "
                   "`baseline` (valid, encodes, encode errors with kind and path) or decodes "
                   "`bytes` against `baseline` (invalid: kind, bit, path). Written by make.py "
                   "from the reference codec and checked against the statements there.",
    "cases": CASES,
}
with open(os.path.join(HERE, "delta.json"), "w") as f:
    json.dump(suite, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(f"delta.json: {len(CASES)} cases")
