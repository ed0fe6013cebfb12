#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
gen_keccak_rounds.py: writes keccak_x4_rounds.inc and keccak_x8_rounds.inc,
the bodies of the avx512 backends' Keccak-f[1600] permutations on four
states (ymm, keccak_x4_avx512vl.c) and eight states (zmm,
keccak_x8_avx512.c), each one inline-assembly string with every register
assigned here.

Why: compiled from arch/keccak_simd.h, the same rounds left gcc 12 about
50 register moves and a few spills per round (25 lanes, 5 parities and a
row's temporaries do not fit its allocation of the 32 registers) and ran
at ~35 cycles per round on Zen 4 against ~25 for the instruction mix
(vprolq: 2 per cycle, latency 2; vpternlogq / vpxorq: 4 per cycle). Here
the 25 lanes live in 25 registers, theta's parities and d values in 5 of
the other 7, a row's chi writes its lanes over its own inputs, and the work
is ordered row by row (theta's XOR, rho, pi and chi of one output row
before the next), which the out-of-order core overlaps best.

The round is FIPS 202 §3.3 / §3.4 (Algorithms 1-4, 6, 7), as in
arch/keccak_simd.h:
  theta  c_x = a_x ^ a_{x+5} ^ a_{x+10} ^ a_{x+15} ^ a_{x+20};
         d_x = c_{x-1} ^ rol(c_{x+1}, 1), formed over the c registers;
         every lane of column x ^= d_x
  rho    every lane rotated in place by its offset (FIPS 202 Table 2)
  pi     output row y reads the lanes ROWS[y] (keccak_simd.h's table)
  chi    e_x = b_x ^ (~b_{x+1} & b_{x+2}) (vpternlogq 0xd2), written over
         b_x once b_0 and b_1 are copied aside (e_3 and e_4 read them)
  iota   lane 0 ^= RC[i], a broadcast memory operand of mlkem_keccak_rc.
Which register holds which lane changes every round (pi). K rounds are
written out per loop iteration and the registers renamed back at its end
(one cycle of moves, about 7 per round at K = 4): fully unrolled (18 KB of
code) the permutation ran faster alone but slowed every ML-KEM operation
down, the kernel's other code no longer fitting the op cache; K = 3 or 4
measured best in the operations (docs/performance.md).

Run it after changing it: python3 arch/avx512/gen_keccak_rounds.py.
test/keccak and arch_slots compare the permutations with the portable one
on every backend; the arch_keccak_rounds test runs this script with
--check, which fails when the .inc files are not its output.
"""
import os
import sys

RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
ROWS = [[0, 6, 12, 18, 24], [3, 9, 10, 16, 22], [1, 7, 13, 19, 20],
        [4, 5, 11, 17, 23], [2, 8, 14, 15, 21]]
K = 4  # rounds per loop iteration (see below)


def y(r):
    return "%%" + VREG + str(r)


def gen(width, check):
    global VREG
    VREG = "ymm" if width == 4 else "zmm"
    lane_bytes = 8 * width  # interleaved 64-bit lanes (keccak_simd.h KS_N)
    out = []

    def emit(s):
        out.append('    "' + s + '\\n\\t"')

    reg = list(range(25))          # reg[j]: the register holding lane j
    free = list(range(25, 32))     # 7 registers outside the state
    for j in range(25):
        emit("vmovdqa64 %d(%%[s]), %s" % (lane_bytes * j, y(reg[j])))
    emit("mov $%d, %%[n]" % (24 // K))
    emit("1:")
    for rnd in range(K):
        c = free[0:5]
        t = free[5]
        s0, s1 = free[5], free[6]
        emit("/* round %d */" % rnd)
        for x in range(5):  # theta: column parities
            emit("vpxorq %s, %s, %s" % (y(reg[x + 5]), y(reg[x]), y(c[x])))
            emit("vpternlogq $0x96, %s, %s, %s"
                 % (y(reg[x + 15]), y(reg[x + 10]), y(c[x])))
            emit("vpxorq %s, %s, %s" % (y(reg[x + 20]), y(c[x]), y(c[x])))
        # theta: d_x = c_{x-1} ^ rol(c_{x+1}, 1), formed over the parities
        # with two spare registers (each c is used plain once and rotated
        # once; the order keeps every value until its last use)
        dreg = [None] * 5
        emit("vprolq $1, %s, %s" % (y(c[0]), y(t)))           # T = rol c0
        emit("vprolq $1, %s, %s" % (y(c[2]), y(s1)))          # U = rol c2
        emit("vpxorq %s, %s, %s" % (y(s1), y(c[0]), y(c[0])))  # d1
        dreg[1] = c[0]
        emit("vprolq $1, %s, %s" % (y(c[4]), y(s1)))          # U = rol c4
        emit("vpxorq %s, %s, %s" % (y(s1), y(c[2]), y(c[2])))  # d3
        dreg[3] = c[2]
        emit("vprolq $1, %s, %s" % (y(c[3]), y(s1)))          # U = rol c3
        emit("vpxorq %s, %s, %s" % (y(t), y(c[3]), y(c[3])))   # d4
        dreg[4] = c[3]
        emit("vprolq $1, %s, %s" % (y(c[1]), y(t)))           # T = rol c1
        emit("vpxorq %s, %s, %s" % (y(s1), y(c[1]), y(c[1])))  # d2
        dreg[2] = c[1]
        emit("vpxorq %s, %s, %s" % (y(t), y(c[4]), y(c[4])))   # d0
        dreg[0] = c[4]
        new = [None] * 25
        for row in range(5):  # theta's XOR, rho, pi, chi, row by row
            b = [reg[j] for j in ROWS[row]]
            for j in ROWS[row]:
                emit("vpxorq %s, %s, %s"
                     % (y(dreg[j % 5]), y(reg[j]), y(reg[j])))
                if RHO[j]:
                    emit("vprolq $%d, %s, %s" % (RHO[j], y(reg[j]), y(reg[j])))
            emit("vmovdqa64 %s, %s" % (y(b[0]), y(s0)))
            emit("vmovdqa64 %s, %s" % (y(b[1]), y(s1)))
            srcs = [(b[1], b[2]), (b[2], b[3]), (b[3], b[4]), (b[4], s0),
                    (s0, s1)]
            for x in range(5):
                emit("vpternlogq $0xd2, %s, %s, %s"
                     % (y(srcs[x][1]), y(srcs[x][0]), y(b[x])))
                new[5 * row + x] = b[x]
        reg = new
        emit("vpxorq %d(%%[rc])%%{1to%d%%}, %s, %s"
             % (8 * rnd, width, y(reg[0]), y(reg[0])))  # iota
    # rename back: lane j to register j (cycles of the permutation, one
    # spare register as the temporary)
    done = set()
    for j in range(25):
        if j in done or reg[j] == j:
            continue
        cyc = [j]
        while reg[cyc[-1]] != j:
            cyc.append(reg[cyc[-1]])
        # lane cyc[i] is in register reg[cyc[i]] = cyc[i+1]; wanted in cyc[i]
        emit("vmovdqa64 %s, %s" % (y(cyc[0]), y(free[0])))
        for i in range(len(cyc) - 1):
            emit("vmovdqa64 %s, %s" % (y(cyc[i + 1]), y(cyc[i])))
        emit("vmovdqa64 %s, %s" % (y(free[0]), y(cyc[-1])))
        done.update(cyc)
    reg = list(range(25))
    emit("add $%d, %%[rc]" % (8 * K))
    emit("dec %[n]")
    emit("jnz 1b")
    for j in range(25):
        emit("vmovdqa64 %s, %d(%%[s])" % (y(reg[j]), lane_bytes * j))
    emit("vzeroupper")

    text = ("/* SPDX-License-Identifier: Apache-2.0 */\n"
            "/* Generated by arch/avx512/gen_keccak_rounds.py: do not "
            "edit. The inline\n * assembly of the %d-state "
            "Keccak-f[1600] permutation (%s registers). */\n"
            % (width, VREG)) + "\n".join(out) + "\n"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "keccak_x%d_rounds.inc" % width)
    if not check:
        with open(path, "w") as f:
            f.write(text)
        return True
    with open(path) as f:
        if f.read() == text:
            return True
    print("%s differs from what %s writes: run it again (do not edit the "
          ".inc by hand)" % (path, os.path.basename(__file__)))
    return False


if __name__ == "__main__":
    # --check (test/arch, arch_keccak_rounds): compare, write nothing
    check = sys.argv[1:] == ["--check"]
    ok = all([gen(4, check), gen(8, check)])
    sys.exit(0 if ok else 1)
