#!/usr/bin/env python3
"""Measure candidate varint shapes for the packed encoding (spec section 5.4).

Every candidate is canonical (one encoding per value) and fits a bit stream.
Prints average encoded bits per value for distributions taken from the game
datasets in the product brief. Fixed seed, so the table in docs/spec is
reproducible:  python3 docs/measurements/varint_shapes.py
"""
import math
import random

random.seed(42)
N = 200_000


def bitlen(v):
    return v.bit_length()


def prefix_groups(g, width=64):
    """Unary group count (n-1 one bits, a zero bit unless n is the maximum), then n*g value bits."""
    nmax = math.ceil(width / g)

    def cost(v):
        n = max(1, math.ceil(bitlen(v) / g))
        return (n - 1) + (1 if n < nmax else 0) + n * g

    return cost


def leb_groups(g, width=64):
    """LEB128-like: each group of g value bits followed by a continuation bit."""

    def cost(v):
        n = max(1, math.ceil(bitlen(v) / g))
        return n * (g + 1)

    return cost


def length_prefixed(width=64):
    """A 6/7-bit count of significant bits, then the bits below the top one."""
    head = math.ceil(math.log2(width + 1))

    def cost(v):
        return head + max(0, bitlen(v) - 1)

    return cost


def byte_count(width=64):
    """A 3-bit (4-bit for 64) count of bytes, then whole bytes (bitcode-like)."""
    head = math.ceil(math.log2(width // 8 + 1))

    def cost(v):
        return head + 8 * math.ceil(bitlen(v) / 8)

    return cost


DISTS = {
    "name length 3..16": lambda: random.randint(3, 16),
    "chat length 0..200 (skewed)": lambda: int(random.expovariate(1 / 40)) % 201,
    "list length 0..64": lambda: random.randint(0, 64),
    "entity id 0..10k": lambda: random.randint(0, 10_000),
    "tick seq 0..2^20": lambda: random.randint(0, 1 << 20),
    "delta 0..15 (small)": lambda: int(random.expovariate(1 / 3)) % 16,
    "timestamp ms ~2^41": lambda: random.randint(1 << 40, 1 << 41),
    "uniform u32": lambda: random.getrandbits(32),
    "uniform u64": lambda: random.getrandbits(64),
}

# The values a game protocol puts in varints: lengths, ids, sequence numbers, small deltas.
GAME_ROWS = list(DISTS)[:6]

CANDIDATES = {
    "prefix g=3": prefix_groups(3),
    "prefix g=4": prefix_groups(4),
    "prefix g=5": prefix_groups(5),
    "prefix g=6": prefix_groups(6),
    "prefix g=7 (LEB128 size)": prefix_groups(7),
    "prefix g=8": prefix_groups(8),
    "leb g=3": leb_groups(3),
    "bitlen-6": length_prefixed(),
    "bytecount-4": byte_count(),
}


def main():
    samples = {name: [gen() for _ in range(N)] for name, gen in DISTS.items()}
    names = list(CANDIDATES)
    print("| distribution | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    totals = {c: 0.0 for c in names}
    game = {c: 0.0 for c in names}
    for dname, vals in samples.items():
        row = []
        for c in names:
            avg = sum(CANDIDATES[c](v) for v in vals) / len(vals)
            totals[c] += avg
            if dname in GAME_ROWS:
                game[c] += avg
            row.append(f"{avg:.2f}")
        print(f"| {dname} | " + " | ".join(row) + " |")
    print("| **sum, game rows** | " + " | ".join(f"**{game[c]:.1f}**" for c in names) + " |")
    print("| **sum, all rows** | " + " | ".join(f"**{totals[c]:.1f}**" for c in names) + " |")


if __name__ == "__main__":
    main()
