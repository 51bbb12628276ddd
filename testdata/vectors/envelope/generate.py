#!/usr/bin/env python3
"""Writes envelope.json, the snapshot envelope vectors of docs/framing.md §10.

    python3 testdata/vectors/envelope/generate.py

The cases below are written by hand: every expected `back`, error and value is stated
here, not computed by a model of the sender or receiver. The script only spells the bytes
of headers and of the test codec's bodies (README.md next to this file), so the file, not
this script, is the contract. Every runtime runs envelope.json (see the README).
"""

import json
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def header(seq, back):
    return struct.pack("<HB", seq, back)


def full_body(values):
    """The test codec's full encoding: count u8, then each value as u32 little-endian."""
    return bytes([len(values)]) + b"".join(struct.pack("<I", v) for v in values)


def delta_body(base, values):
    """The test codec's delta: count u8, then each (value - base[i] or 0) mod 2^32."""
    out = bytes([len(values)])
    for i, v in enumerate(values):
        b = base[i] if i < len(base) else 0
        out += struct.pack("<I", (v - b) & 0xFFFFFFFF)
    return out


def full(seq, values):
    return (header(seq, 0) + full_body(values)).hex()


def delta(seq, back, base, values):
    return (header(seq, back) + delta_body(base, values)).hex()


HEADERS = [
    {"id": "envelope.header.full", "bytes": "2c0100", "seq": 300, "back": 0, "body": "",
     "note": "seq 300 (2c 01), back 0: a full snapshot, here with an empty body"},
    {"id": "envelope.header.example", "bytes": "2c010200", "seq": 300, "back": 2, "base": 298,
     "body": "00", "note": "docs/framing.md §10.6: an unchanged message of at most 8 fields"},
    {"id": "envelope.header.delta", "bytes": "2d0103ff00", "seq": 301, "back": 3, "base": 298,
     "body": "ff00"},
    {"id": "envelope.header.wrap", "bytes": "010005", "seq": 1, "back": 5, "base": 65532,
     "body": "", "note": "the baseline is before the wrap: 1 - 5 mod 2^16"},
    {"id": "envelope.header.max", "bytes": "ffffff", "seq": 65535, "back": 255, "base": 65280,
     "body": ""},
    {"id": "envelope.header.empty", "bytes": "", "error": "Truncated"},
    {"id": "envelope.header.one_byte", "bytes": "2c", "error": "Truncated"},
    {"id": "envelope.header.two_bytes", "bytes": "2c01", "error": "Truncated"},
]

A = [1, 2, 3]
B = [1, 2, 5]
C = [1, 7, 5, 9]
D = [0, 7, 5]

SENDER = [
    {
        "id": "envelope.sender.baseline_choice",
        "ring": 4,
        "note": "the newest acknowledged snapshot in the ring is the baseline; back = N is the oldest slot",
        "steps": [
            {"send": A, "header": [0, 0], "packet": full(0, A), "note": "nothing acknowledged"},
            {"send": B, "header": [1, 0], "packet": full(1, B)},
            {"ack": 0},
            {"send": C, "header": [2, 2], "packet": delta(2, 2, A, C)},
            {"ack": 2},
            {"ack": 1, "note": "older than the acknowledged 2: ignored"},
            {"send": D, "header": [3, 1], "packet": delta(3, 1, C, D)},
            {"send": A, "header": [4, 2], "packet": delta(4, 2, C, A)},
            {"send": B, "header": [5, 3], "packet": delta(5, 3, C, B)},
            {"send": D, "header": [6, 4], "packet": delta(6, 4, C, D), "note": "back 4 = N"},
            {"send": C, "header": [7, 0], "packet": full(7, C), "note": "seq 2 left the ring"},
            {"ack": 2, "note": "not in the ring: ignored"},
            {"send": A, "header": [8, 0], "packet": full(8, A)},
        ],
    },
    {
        "id": "envelope.sender.request_full",
        "ring": 32,
        "steps": [
            {"send": A, "header": [0, 0], "packet": full(0, A)},
            {"ack": 0},
            {"send": B, "header": [1, 1], "packet": delta(1, 1, A, B)},
            {"ack": 1},
            {"request_full": True},
            {"send": C, "header": [2, 0], "packet": full(2, C), "note": "requested"},
            {"send": D, "header": [3, 2], "packet": delta(3, 2, B, D), "note": "only once"},
        ],
    },
    {
        "id": "envelope.sender.ack_not_sent",
        "ring": 8,
        "steps": [
            {"ack": 0, "error": "AckNotSent", "note": "nothing sent"},
            {"send": A, "header": [0, 0], "packet": full(0, A)},
            {"send": B, "header": [1, 0], "packet": full(1, B)},
            {"ack": 2, "error": "AckNotSent", "note": "the future"},
            {"ack": 65535, "error": "AckNotSent", "note": "before the first (1 - 65535 = 2 back)"},
            {"ack": 30000, "error": "AckNotSent", "note": "far ahead"},
            {"send": C, "header": [2, 0], "packet": full(2, C), "note": "the refused acks changed nothing"},
            {"ack": 1},
            {"send": D, "header": [3, 2], "packet": delta(3, 2, B, D)},
        ],
    },
    {
        "id": "envelope.sender.ring_of_one",
        "ring": 1,
        "steps": [
            {"send": A, "header": [0, 0], "packet": full(0, A)},
            {"ack": 0},
            {"send": B, "header": [1, 1], "packet": delta(1, 1, A, B)},
            {"send": C, "header": [2, 0], "packet": full(2, C), "note": "seq 0 left the ring"},
        ],
    },
    {
        "id": "envelope.sender.encode_error",
        "ring": 4,
        "steps": [
            {"send": A, "header": [0, 0], "packet": full(0, A)},
            {"send": list(range(256)), "error": "Message", "message": "InvalidLength",
             "note": "256 values: the test codec refuses it; nothing is stored"},
            {"ack": 0},
            {"send": B, "header": [1, 1], "packet": delta(1, 1, A, B), "note": "seq 1, not 2"},
        ],
    },
]

RECEIVER = [
    {
        "id": "envelope.receiver.in_order",
        "ring": 4,
        "steps": [
            {"packet": full(100, A), "seq": 100, "value": A, "ack": 100, "need_full": False},
            {"packet": delta(101, 1, A, B), "seq": 101, "value": B, "ack": 101, "need_full": False},
            {"packet": delta(102, 2, A, C), "seq": 102, "value": C, "ack": 102, "need_full": False},
            {"packet": delta(103, 4, [], D), "error": "BaselineMissing", "ack": 102, "need_full": True,
             "note": "seq 99 was never decoded"},
            {"packet": delta(103, 3, A, D), "seq": 103, "value": D, "ack": 103, "need_full": False,
             "note": "back 3 = seq 100, the oldest decoded"},
        ],
    },
    {
        "id": "envelope.receiver.stale",
        "ring": 4,
        "steps": [
            {"packet": full(0, A), "seq": 0, "value": A, "ack": 0, "need_full": False},
            {"packet": delta(5, 5, A, B), "error": "BaselineStale", "ack": 0, "need_full": True,
             "note": "back 5 is beyond a ring of 4, even though seq 0 is still held"},
            {"packet": delta(4, 4, A, B), "seq": 4, "value": B, "ack": 4, "need_full": False},
            {"packet": full(5, C), "seq": 5, "value": C, "ack": 5, "need_full": False},
        ],
    },
    {
        "id": "envelope.receiver.first_is_delta",
        "ring": 32,
        "steps": [
            {"packet": delta(7, 1, [], A), "error": "BaselineMissing", "ack": None, "need_full": True},
            {"packet": "0700", "error": "Truncated", "ack": None, "need_full": True},
            {"packet": full(7, A), "seq": 7, "value": A, "ack": 7, "need_full": False},
        ],
    },
    {
        "id": "envelope.receiver.duplicates_and_late",
        "ring": 8,
        "note": "a snapshot not newer than the newest decoded is dropped unread: no error, no change",
        "steps": [
            {"packet": full(10, A), "seq": 10, "value": A, "ack": 10, "need_full": False},
            {"packet": delta(12, 2, A, B), "seq": 12, "value": B, "ack": 12, "need_full": False},
            {"packet": delta(12, 2, A, B), "dropped": True, "ack": 12, "need_full": False},
            {"packet": delta(11, 1, A, C), "dropped": True, "ack": 12, "need_full": False},
            {"packet": "0b0001", "dropped": True, "ack": 12, "need_full": False,
             "note": "late and malformed: its body is not read"},
            {"packet": delta(13, 2, [], C), "error": "BaselineMissing", "ack": 12, "need_full": True,
             "note": "seq 11 was dropped, so it is not a baseline"},
            {"packet": full(32780, D), "dropped": True, "ack": 12, "need_full": True,
             "note": "32768 ahead counts as behind"},
            {"packet": full(32779, D), "seq": 32779, "value": D, "ack": 32779, "need_full": False},
        ],
    },
    {
        "id": "envelope.receiver.wrap",
        "ring": 4,
        "steps": [
            {"packet": full(65534, A), "seq": 65534, "value": A, "ack": 65534, "need_full": False},
            {"packet": delta(65535, 1, A, B), "seq": 65535, "value": B, "ack": 65535, "need_full": False},
            {"packet": delta(0, 2, A, C), "seq": 0, "value": C, "ack": 0, "need_full": False},
            {"packet": delta(1, 2, B, D), "seq": 1, "value": D, "ack": 1, "need_full": False},
            {"packet": full(65535, A), "dropped": True, "ack": 1, "need_full": False},
        ],
    },
    {
        "id": "envelope.receiver.bad_body",
        "ring": 4,
        "steps": [
            {"packet": full(1, A)[:-2], "error": "Message", "message": "Truncated", "ack": None,
             "need_full": True},
            {"packet": full(1, A) + "00", "error": "Message", "message": "TrailingData", "ack": None,
             "need_full": True},
            {"packet": full(1, A), "seq": 1, "value": A, "ack": 1, "need_full": False},
            {"packet": delta(2, 1, A, B)[:8], "error": "Message", "message": "Truncated", "ack": 1,
             "need_full": True, "note": "the failed delta is not stored"},
            {"packet": delta(2, 1, A, C), "seq": 2, "value": C, "ack": 2, "need_full": False},
        ],
    },
]


def main():
    doc = {
        "suite": "envelope",
        "description": "Snapshot envelopes of docs/framing.md §10: headers, and what a sender "
                       "writes and a receiver decodes step by step, with the test codec of "
                       "README.md.",
        "headers": HEADERS,
        "sender": SENDER,
        "receiver": RECEIVER,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    # Lists of numbers (values, headers) on one line each.
    text = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
                  lambda m: "[" + ", ".join(re.split(r",\s*", m.group(1))) + "]", text)
    with open(os.path.join(HERE, "envelope.json"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
