#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
gen_keccak_rounds.py: writes the x86 backends' parallel Keccak-f[1600]
permutations as inline-assembly strings with every register assigned
here:
  arch/avx512/keccak_x4_rounds.inc  four states in ymm registers (AVX-512VL)
  arch/avx512/keccak_x8_rounds.inc  eight states in zmm registers
  arch/avx2/keccak_x4_rounds.inc    four states, AVX2 (16 ymm registers)
included by keccak_x4_avx512vl.c, keccak_x8_avx512.c and keccak_x4_avx2.c.
The layout is arch/keccak_simd.h's (lane j of state i at s[KS_N j + i]).

Why: compiled from arch/keccak_simd.h, the AVX-512 rounds left gcc 12
about 50 register moves and a few spills per round (25 lanes, 5 parities
and a row's temporaries in 32 registers) and ran at ~35 cycles per round on
Zen 4 against ~25 for the instruction mix (vprolq: 2 per cycle, latency 2;
vpternlogq / vpxorq: 4 per cycle). AVX2 has 16 registers, so the state
cannot stay in them; gcc's schedule of the C round ran at 58 cycles per
round against 46 for its 184 vector operations.

The round is FIPS 202 §3.3 / §3.4 (Algorithms 1-4, 6, 7), as in
arch/keccak_simd.h:
  theta  c_x = a_x ^ a_{x+5} ^ a_{x+10} ^ a_{x+15} ^ a_{x+20};
         d_x = c_{x-1} ^ rol(c_{x+1}, 1); every lane of column x ^= d_x
  rho    every lane rotated by its offset (FIPS 202 Table 2)
  pi     output row y reads the lanes ROWS[y] (keccak_simd.h's table)
  chi    e_x = b_x ^ (~b_{x+1} & b_{x+2})
  iota   lane 0 ^= RC[i] (mlkem_keccak_rc, broadcast).
Both forms work row by row (theta's XOR, rho, pi and chi of one output row
before the next), which the out-of-order core overlaps best; the AVX-512
form also emits a row's theta and rho ahead of the previous row's chi
(526 -> 505 ticks for the x4 call on Zen 4).

AVX-512 (gen_avx512): the 25 lanes live in 25 registers; the parities and
then the d values in 5 of the other 7, formed over each other in an order
that keeps every value until its last use; a row's chi (vpternlogq 0xd2)
writes its lanes over its own inputs once b_0 and b_1 are copied aside.
Which register holds which lane changes every round (pi), so K rounds are
written out per loop iteration and the registers renamed back at its end
(about 7 moves per round at K = 4): fully unrolled (18 KB of code) the
permutation was no faster alone and slowed every ML-KEM operation, the
rest of the kernel no longer fitting the op cache; K = 3 or 4 measured
best.

AVX2 (gen_avx2): the lanes stay in memory and the rounds alternate between
the caller's state and a 800-byte buffer on the stack; registers hold the
five d values, the five parities of the next round (accumulated from each
output row as it is stored), a row's five lanes and one temporary: 16.
Rotations are two shifts and an OR, except rol 1 (the left shift is an
add, which more pipes execute) and rol 8 / rol 56 (one vpshufb each). The
buffer is wiped before returning (it holds the last round's input). On
Zen 4 this runs at about 55 cycles per round, and at 53 in a probe with
no dependence between rounds at all: the rate of this mix (3.45 vector
operations per cycle), not the round boundary, is what is left
(docs/performance.md, "Why avx2 cannot come within 15% here").

Run it after changing it: python3 arch/gen_keccak_rounds.py. test/keccak
and arch_slots compare the permutations with the portable one on every
backend; the arch_keccak_rounds test runs this script with --check, which
fails when the .inc files are not its output.
"""
import os
import sys

RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
ROWS = [[0, 6, 12, 18, 24], [3, 9, 10, 16, 22], [1, 7, 13, 19, 20],
        [4, 5, 11, 17, 23], [2, 8, 14, 15, 21]]
K = 4  # AVX-512: rounds per loop iteration


class Asm:
    """Lines of an inline-assembly string; register names of one width."""

    def __init__(self, vreg):
        self.vreg = vreg
        self.lines = []

    def r(self, n):
        return "%%" + self.vreg + str(n)

    def __call__(self, s):
        self.lines.append('    "' + s + '\\n\\t"')


def gen_avx512(width):
    a = Asm("ymm" if width == 4 else "zmm")
    y = a.r
    lane_bytes = 8 * width
    reg = list(range(25))          # reg[j]: the register holding lane j
    free = list(range(25, 32))     # the 7 registers outside the state
    for j in range(25):
        a("vmovdqa64 %d(%%[s]), %s" % (lane_bytes * j, y(reg[j])))
    a("mov $%d, %%[n]" % (24 // K))
    a("1:")
    for rnd in range(K):
        c = free[0:5]
        t, u = free[5], free[6]
        a("/* round %d + K i */" % rnd)
        for x in range(5):  # theta: column parities
            a("vpxorq %s, %s, %s" % (y(reg[x + 5]), y(reg[x]), y(c[x])))
            a("vpternlogq $0x96, %s, %s, %s"
              % (y(reg[x + 15]), y(reg[x + 10]), y(c[x])))
            a("vpxorq %s, %s, %s" % (y(reg[x + 20]), y(c[x]), y(c[x])))
        # theta: d_x = c_{x-1} ^ rol(c_{x+1}, 1) over the parities, with t
        # and u spare: each c is read plain once and rotated once, and is
        # overwritten only after both
        d = [None] * 5
        a("vprolq $1, %s, %s" % (y(c[0]), y(t)))           # t = rol c0
        a("vprolq $1, %s, %s" % (y(c[2]), y(u)))           # u = rol c2
        a("vpxorq %s, %s, %s" % (y(u), y(c[0]), y(c[0])))   # d1 = c0 ^ u
        d[1] = c[0]
        a("vprolq $1, %s, %s" % (y(c[4]), y(u)))           # u = rol c4
        a("vpxorq %s, %s, %s" % (y(u), y(c[2]), y(c[2])))   # d3 = c2 ^ u
        d[3] = c[2]
        a("vprolq $1, %s, %s" % (y(c[3]), y(u)))           # u = rol c3
        a("vpxorq %s, %s, %s" % (y(t), y(c[3]), y(c[3])))   # d4 = c3 ^ t
        d[4] = c[3]
        a("vprolq $1, %s, %s" % (y(c[1]), y(t)))           # t = rol c1
        a("vpxorq %s, %s, %s" % (y(u), y(c[1]), y(c[1])))   # d2 = c1 ^ u
        d[2] = c[1]
        a("vpxorq %s, %s, %s" % (y(t), y(c[4]), y(c[4])))   # d0 = c4 ^ t
        d[0] = c[4]
        new = [None] * 25

        def theta_rho(row):  # theta's XOR and rho on an output row's lanes
            for j in ROWS[row]:
                a("vpxorq %s, %s, %s" % (y(d[j % 5]), y(reg[j]), y(reg[j])))
            for j in ROWS[row]:
                if RHO[j]:
                    a("vprolq $%d, %s, %s" % (RHO[j], y(reg[j]), y(reg[j])))

        theta_rho(0)
        for row in range(5):  # pi and chi, row by row, the next row's
            b = [reg[j] for j in ROWS[row]]  # theta and rho ahead of them
            if row < 4:
                theta_rho(row + 1)
            a("vmovdqa64 %s, %s" % (y(b[0]), y(t)))
            a("vmovdqa64 %s, %s" % (y(b[1]), y(u)))
            srcs = [(b[1], b[2]), (b[2], b[3]), (b[3], b[4]), (b[4], t),
                    (t, u)]
            for x in range(5):  # b_x ^= ~p & q
                a("vpternlogq $0xd2, %s, %s, %s"
                  % (y(srcs[x][1]), y(srcs[x][0]), y(b[x])))
                new[5 * row + x] = b[x]
        reg = new
        a("vpxorq %d(%%[rc])%%{1to%d%%}, %s, %s"
          % (8 * rnd, width, y(reg[0]), y(reg[0])))  # iota
    # rename back: lane j to register j, one cycle of the permutation at a
    # time through a spare register (register reg[j] holds lane j)
    done = set()
    for j in range(25):
        if j in done or reg[j] == j:
            continue
        cyc = [j]
        while reg[cyc[-1]] != j:
            cyc.append(reg[cyc[-1]])
        a("vmovdqa64 %s, %s" % (y(cyc[0]), y(free[0])))
        for i in range(len(cyc) - 1):
            a("vmovdqa64 %s, %s" % (y(cyc[i + 1]), y(cyc[i])))
        a("vmovdqa64 %s, %s" % (y(free[0]), y(cyc[-1])))
        done.update(cyc)
    a("add $%d, %%[rc]" % (8 * K))
    a("dec %[n]")
    a("jnz 1b")
    for j in range(25):
        a("vmovdqa64 %s, %d(%%[s])" % (y(j), lane_bytes * j))
    a("vzeroupper")
    return a.lines


def gen_avx2():
    a = Asm("ymm")
    y = a.r
    D, C, B, T = [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], 15

    def mem(base, j):
        return "%d(%%[%s])" % (32 * j, base)

    def dvals():  # d_x = c_{x-1} ^ rol(c_{x+1}, 1), B and T as scratch
        for x in range(5):
            c1 = C[(x + 1) % 5]
            a("vpsrlq $63, %s, %s" % (y(c1), y(T)))
            a("vpaddq %s, %s, %s" % (y(c1), y(c1), y(B[x])))
            a("vpor %s, %s, %s" % (y(T), y(B[x]), y(B[x])))
            a("vpxor %s, %s, %s" % (y(C[(x + 4) % 5]), y(B[x]), y(D[x])))

    def round_(src, dst, k):
        a("/* round %d + 2 i: %s -> %s */" % (k, src, dst))
        for row in range(5):
            for x in range(5):
                j, b = ROWS[row][x], B[x]
                a("vpxor %s, %s, %s" % (mem(src, j), y(D[j % 5]), y(b)))
                r = RHO[j]
                if r in (8, 56):
                    a("vpshufb %d(%%[m]), %s, %s"
                      % (0 if r == 8 else 32, y(b), y(b)))
                elif r == 1:
                    a("vpsrlq $63, %s, %s" % (y(b), y(T)))
                    a("vpaddq %s, %s, %s" % (y(b), y(b), y(b)))
                    a("vpor %s, %s, %s" % (y(T), y(b), y(b)))
                elif r:
                    a("vpsrlq $%d, %s, %s" % (64 - r, y(b), y(T)))
                    a("vpsllq $%d, %s, %s" % (r, y(b), y(b)))
                    a("vpor %s, %s, %s" % (y(T), y(b), y(b)))
            for x in range(5):  # e_x to memory and into the next parity
                o = 5 * row + x
                a("vpandn %s, %s, %s"
                  % (y(B[(x + 2) % 5]), y(B[(x + 1) % 5]), y(T)))
                if row == 0:
                    a("vpxor %s, %s, %s" % (y(B[x]), y(T), y(C[x])))
                    if x == 0:
                        a("vpbroadcastq %d(%%[rc]), %s" % (8 * k, y(T)))
                        a("vpxor %s, %s, %s" % (y(T), y(C[0]), y(C[0])))
                    a("vmovdqa %s, %s" % (y(C[x]), mem(dst, o)))
                else:
                    a("vpxor %s, %s, %s" % (y(B[x]), y(T), y(T)))
                    a("vmovdqa %s, %s" % (y(T), mem(dst, o)))
                    a("vpxor %s, %s, %s" % (y(T), y(C[x]), y(C[x])))
        dvals()

    for x in range(5):  # the first round's parities and d values
        a("vmovdqa %s, %s" % (mem("s", x), y(C[x])))
        for r in range(1, 5):
            a("vpxor %s, %s, %s" % (mem("s", x + 5 * r), y(C[x]), y(C[x])))
    dvals()
    a("mov $12, %[n]")
    a("1:")
    round_("s", "q", 0)
    round_("q", "s", 1)
    a("add $16, %[rc]")
    a("dec %[n]")
    a("jnz 1b")
    # the buffer holds the input of the last round: wiped (FIPS 203 §3.3)
    a("vpxor %s, %s, %s" % (y(T), y(T), y(T)))
    for j in range(25):
        a("vmovdqa %s, %s" % (y(T), mem("q", j)))
    a("vzeroupper")
    return a.lines


def write(rel, what, lines, check):
    text = ("/* SPDX-License-Identifier: Apache-2.0 */\n"
            "/* Generated by arch/gen_keccak_rounds.py: do not edit. The "
            "inline assembly\n * of the %s. */\n" % what
            + "\n".join(lines) + "\n")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), rel)
    if not check:
        with open(path, "w") as f:
            f.write(text)
        return True
    with open(path) as f:
        if f.read() == text:
            return True
    print("arch/%s differs from what gen_keccak_rounds.py writes: run it "
          "again (the .inc files are not edited by hand)" % rel)
    return False


if __name__ == "__main__":
    # --check (test/arch, arch_keccak_rounds): compare, write nothing
    check = sys.argv[1:] == ["--check"]
    ok = [write("avx512/keccak_x4_rounds.inc",
                "four-state Keccak-f[1600] permutation, AVX-512VL on ymm "
                "registers", gen_avx512(4), check),
          write("avx512/keccak_x8_rounds.inc",
                "eight-state Keccak-f[1600] permutation on zmm registers",
                gen_avx512(8), check),
          write("avx2/keccak_x4_rounds.inc",
                "four-state Keccak-f[1600] permutation, AVX2",
                gen_avx2(), check)]
    sys.exit(0 if all(ok) else 1)
