#!/usr/bin/env python3
"""Measure byte-aligning blobs (strings, bytes) in the packed encoding (ADR 0003).

Encodes a fixed-seed `events`-like dataset (chat messages and kill events: a few
bit-packed scalars, a player name and a chat text) two ways:
  unaligned - string bytes follow the length prefix immediately (bitwire's choice);
  aligned   - zero bits pad to a byte boundary before each string's bytes.
Prints the raw size, and the size after zstd level 3 both per message (as a
game sends them) and for the whole stream (as a replay file stores them).

    pip install -r docs/measurements/requirements.txt
    python3 docs/measurements/alignment.py
"""
import random

import zstandard

random.seed(42)
WORDS = ("gg wp nice shot behind you reload rush b push mid heal me need ammo lol "
         "no way camping sniper left right go go go defend flag capture").split()


class Bits:
    def __init__(self, align_blobs):
        self.bits = []
        self.align = align_blobs

    def put(self, v, n):
        self.bits.extend((v >> i) & 1 for i in range(n))

    def varint(self, v):  # spec §5.4, 64-bit
        n = max(1, -(-v.bit_length() // 4))
        self.put((1 << (n - 1)) - 1, n - 1)
        if n < 16:
            self.put(0, 1)
        self.put(v, 4 * n)

    def blob(self, data):
        self.varint(len(data))
        if self.align:
            while len(self.bits) % 8:
                self.bits.append(0)
        for b in data:
            self.put(b, 8)

    def bytes(self):
        while len(self.bits) % 8:
            self.bits.append(0)
        return bytes(sum(self.bits[i + k] << k for k in range(8)) for i in range(0, len(self.bits), 8))


def dataset(n):
    names = ["".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789_") for _ in range(random.randint(3, 16)))
             for _ in range(64)]
    out = []
    for _ in range(n):
        if random.random() < 0.6:
            text = " ".join(random.choice(WORDS) for _ in range(random.randint(1, 8)))
            out.append(("chat", random.randrange(64), random.choice(names), text))
        else:
            out.append(("kill", random.randrange(64), random.randrange(64), random.randrange(16), random.choice(names)))
    return out


def encode(ev, align):
    w = Bits(align)
    if ev[0] == "chat":
        w.put(0, 1)
        w.put(ev[1], 6)
        w.blob(ev[2].encode())
        w.blob(ev[3].encode())
    else:
        w.put(1, 1)
        w.put(ev[1], 6)
        w.put(ev[2], 6)
        w.put(ev[3], 4)
        w.blob(ev[4].encode())
    return w.bytes()


def main():
    events = dataset(20_000)
    cctx = zstandard.ZstdCompressor(level=3)
    print("| layout | raw bytes | zstd-3 per message | zstd-3 whole stream |")
    print("|---|---|---|---|")
    for name, align in (("unaligned (chosen)", False), ("aligned blobs", True)):
        msgs = [encode(e, align) for e in events]
        raw = sum(map(len, msgs))
        per = sum(len(cctx.compress(m)) for m in msgs)
        whole = len(cctx.compress(b"".join(msgs)))
        print(f"| {name} | {raw} | {per} | {whole} |")


if __name__ == "__main__":
    main()
