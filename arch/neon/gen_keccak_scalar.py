#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
gen_keccak_scalar.py: writes arch/neon/keccak_scalar_round.h, the scalar
Keccak-f[1600] round of the AArch64 kernels (the neon backend's single
state, and the scalar half of both hybrid x4 permutations), in C with
"lazy rotation" (Becker, Kannwischer, ePrint 2022/1243, §3): every
rotation is folded into the shifted-register operand of an EOR or BIC, so
a round is 101 data instructions (theta's parities 20, d 5, theta's XOR +
rho + pi 25, chi 50, iota 1) and no ROR.

How. Lane j is kept rotated: its register holds S_j = ror(A_j, p_j), the
true lane A_j rotated right by a "pending" amount p_j fixed when the code
is written. AArch64's EOR and BIC take their second operand rotated
(EOR Xd, Xn, Xm, ROR #s; BIC Xd, Xn, Xm, ROR #s = Xn & ~ror(Xm, s)), so
every step can leave its result pending by one of two amounts instead of
rotating anything (FIPS 202 §3.2 for the steps):
  parity   C_x = ror(c_x, q_x), q_x the amount of one lane of column x
           (that lane unrotated, the four others by EOR ... ROR);
  theta d  D_x = ror(c_{x-1} ^ rol(c_{x+1}, 1), r_x), r_x = q_{x-1} or
           q_{x+1} + 1 (one of the two parities unrotated);
  rho, pi  B = ror(rol(A_j ^ d_x, rho_j), t) with t = rho_j + r_x (D
           unrotated, the lane rotated) or rho_j + p_j (the other way);
  chi      e_x = b_x ^ (~b_{x+1} & b_{x+2}): T = B_{x+2} & ~ror(B_{x+1}, .)
           is pending t_{x+2}; the EOR leaves e_x pending t_x
           (B_x ^ ror(T, .)) or t_{x+2} (T ^ ror(B_x, .));
  iota     lane 0 ^= ror(RC, p_0): the EOR rotates RC.
The output lanes' amounts follow from the input's and these choices
(CHOICE below). CHOICE is a fixed point: the round leaves every lane
pending by the amount it found it with (the header's P_j table), so one
round macro
serves every round, in a loop of any length; only the entry and exit of a
permutation rotate the lanes whose amount is not 0 (NKS_ENTER,
NKS_LEAVE). It also keeps gcc 12 from emitting a ROR anyway:
  - no value is rotated twice by the same amount (gcc computes such a
    rotation once, a ROR, and uses it unfolded twice);
  - every BIC rotates by 0 to 31: gcc 12 folds a rotation into BIC only as
    ror #1..31 (it writes ror #32..63 as a left rotation, which its BIC
    patterns do not take; EOR takes both; clang folds all of them).
The compiler must also keep the parity chains in the written order: gcc's
reassociation pairs two rotated lanes (an explicit ROR), hence
-fno-tree-reassoc for the files that use this (arch/neon/CMakeLists.txt).

Finding CHOICE (--search SEED STEPS): simulated annealing over the choices
(which lane leads each parity, which parity d leaves unrotated, which of
lane and d each B leaves unrotated, each chi output's form), scored by the
extra instructions a round would need (a ROR per collision, per wide BIC,
per cycle of the amounts' dependences that does not close) and then by the
number of lanes pending at the entry. The fixed point is solved
symbolically: every output amount is an input amount plus a constant, and
the dependence graph's cycles must add up to 0 mod 64 (one amount per
cycle is then free: chosen to make the most amounts 0).

The round's order of work is THETA_ORDER (theta column by column: a
column's lanes die as their B values are formed, once its parity is
taken), then chi row by row; each chi output is one statement with its
and-not term inside.

Run it after changing it: python3 arch/neon/gen_keccak_scalar.py.
test/keccak and arch_slots compare the permutations with the portable one
on every backend; the arch_keccak_scalar test runs this script with
--check, which fails when keccak_scalar_round.h is not its output.
"""
import math
import os
import sys

RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
# output row y, position x reads input lane ROWS[y][x] (keccak_neon.h)
ROWS = [[0, 6, 12, 18, 24], [3, 9, 10, 16, 22], [1, 7, 13, 19, 20],
        [4, 5, 11, 17, 23], [2, 8, 14, 15, 21]]

# Found by an earlier form of --search (Python's random module, seed 3,
# 30,000 steps). --search finds others of the same quality (no extra
# instruction, 19 or 20 lanes pending at the entry); compiled with gcc 12
# (-O3, the files' flags) three of them came within 0.5% of this one in
# every permutation, which is noise of the register allocator.
CHOICE = {
    'lead': [1, 3, 4, 0, 3],
    'ropt': [0, 0, 0, 0, 0],
    'topt': [1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1,
             0, 0, 1, 1, 1],
    'form': [0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0,
             0, 1, 1, 0, 1],
}


class Rng:
    """xorshift64: the same sequence on every Python."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15) % 2**64 or 1

    def below(self, n):
        s = self.s
        s ^= (s << 13) % 2**64
        s ^= s >> 7
        s ^= (s << 17) % 2**64
        self.s = s
        return s % n

    def unit(self):
        return self.below(2**53) / 2.0**53


def round_ops(p, ch):
    """The round as operations, given the input lanes' amounts p (numbers,
    or (ancestor, offset) pairs when symbolic). Returns the output amounts
    and the operations (dst, op, src1, src2, rotation): dst = src1 op
    ror(src2, rotation), op '^' or '&~' (BIC). Values: ('L', lane) the
    input, ('E', lane) the output, ('C', x) theta's parity of column x
    (four operations in a chain), ('D', x) its d, ('B', j) output lane j
    before chi, ('T', j) the and-not term of chi for output lane j."""
    sym = isinstance(p[0], tuple)

    def add(a, k):
        return (a[0], (a[1] + k) % 64) if sym else (a + k) % 64

    def sub(a, b):
        return None if sym else (a - b) % 64

    ops = []
    q = [p[x + 5 * ch['lead'][x]] for x in range(5)]
    for x in range(5):  # theta: column parities
        lead = x + 5 * ch['lead'][x]
        acc = ('L', lead)
        for y in range(5):
            j = x + 5 * y
            if j != lead:
                ops.append((('C', x), '^', acc, ('L', j), sub(q[x], p[j])))
                acc = ('C', x)
    r = [None] * 5
    for x in range(5):  # theta: d_x = c_{x-1} ^ rol(c_{x+1}, 1)
        lo, hi = (x - 1) % 5, (x + 1) % 5
        if ch['ropt'][x] == 0:
            r[x] = q[lo]
            ops.append((('D', x), '^', ('C', lo), ('C', hi),
                        sub(add(r[x], -1), q[hi])))
        else:
            r[x] = add(q[hi], 1)
            ops.append((('D', x), '^', ('C', hi), ('C', lo),
                        sub(r[x], q[lo])))
    t = [None] * 25  # t[j]: the amount of B value j
    for y in range(5):  # theta's XOR, rho, pi: B value 5 y + x
        for x in range(5):
            i = ROWS[y][x]
            c = i % 5
            j = 5 * y + x
            if ch['topt'][i] == 0:
                t[j] = add(r[c], RHO[i])
                ops.append((('B', j), '^', ('D', c), ('L', i),
                            sub(r[c], p[i])))
            else:
                t[j] = add(p[i], RHO[i])
                ops.append((('B', j), '^', ('L', i), ('D', c),
                            sub(p[i], r[c])))
    u = [None] * 25
    for y in range(5):  # chi, per output row
        for x in range(5):
            j = x + 5 * y
            j1, j2 = (x + 1) % 5 + 5 * y, (x + 2) % 5 + 5 * y
            ops.append((('T', j), '&~', ('B', j2), ('B', j1),
                        sub(t[j2], t[j1])))
            if ch['form'][j] == 0:
                u[j] = t[j]
                ops.append((('E', j), '^', ('B', j), ('T', j),
                            sub(t[j], t[j2])))
            else:
                u[j] = t[j2]
                ops.append((('E', j), '^', ('T', j), ('B', j),
                            sub(t[j2], t[j])))
    return u, ops


def statements(ops):
    """The operations grouped into the statements the header writes: a
    parity chain, a d, a B, a chi output (its and-not term inlined); each
    as (dst, sources, operations)."""
    st = {}
    order = []
    for op in ops:
        dst = op[0]
        key = ('E', dst[1]) if dst[0] == 'T' else dst
        if key not in st:
            st[key] = []
            order.append(key)
        st[key].append(op)
    out = []
    for key in order:
        srcs = []
        for op in st[key]:
            for v in op[2:4]:
                if v[0] != 'T' and v != key and v not in srcs:
                    srcs.append(v)
        out.append((key, srcs, st[key]))
    return out


# The order of theta's statements (the chi outputs follow, row by row):
# parities C, d values D, and the B values of column x, Bx (theta's XOR
# into that column's lanes, rho, pi). A column's lanes die as its B values
# are formed, so it must come after its own parity; this order keeps at
# most four parities and d values live beside the 25 lanes (29 registers
# with the round-constant pointer: gcc has 30 to give).
THETA_ORDER = "C1 C0 C2 D1 B1 C3 D4 D2 B2 C4 B4 D0 D3 B0 B3".split()


def schedule(sts):
    """The statements in THETA_ORDER, then the chi outputs."""
    out = []
    for item in THETA_ORDER:
        n = int(item[1])
        for st in sts:
            dst, srcs, _ = st
            if item[0] == 'B' and dst[0] == 'B':
                if [v for v in srcs if v[0] == 'L'][0][1] % 5 == n:
                    out.append(st)
            elif dst == (item[0], n):
                out.append(st)
    out += [st for st in sts if st[0][0] == 'E']
    assert sorted(out) == sorted(sts)
    return out


def cycles(ch):
    """The dependence graph of the output amounts on the input ones
    (u_j = p_anc(j) + k_j): anc, k, its cycles, and each lane's cycle."""
    u, _ = round_ops([(j, 0) for j in range(25)], ch)
    anc = [a for a, _ in u]
    k = [o for _, o in u]
    comp = [None] * 25
    cyc = []
    for s in range(25):
        seen = []
        j = s
        while comp[j] is None and j not in seen:
            seen.append(j)
            j = anc[j]
        if comp[j] is None:
            cyc.append(seen[seen.index(j):])
            for c in cyc[-1]:
                comp[c] = len(cyc) - 1
        for c in seen:
            if comp[c] is None:
                comp[c] = comp[j]
    return anc, k, cyc, comp


def fixed_point(ch):
    """The amounts p with round(p) = p, the most of them 0; or the number
    of cycles that do not close."""
    anc, k, cyc, comp = cycles(ch)
    open_ = sum(1 for c in cyc if sum(k[j] for j in c) % 64)
    if open_:
        return open_
    p = [0] * 25
    for n, c in enumerate(cyc):
        members = [j for j in range(25) if comp[j] == n]
        top = None
        for v in range(64):
            val = {c[0]: v}
            j = c[0]
            while anc[j] not in val:  # back around the cycle
                val[anc[j]] = (val[j] - k[j]) % 64
                j = anc[j]

            def get(j):
                if j not in val:
                    val[j] = (get(anc[j]) + k[j]) % 64
                return val[j]
            zeros = sum(get(j) == 0 for j in members)
            if top is None or zeros > top[0]:
                top = (zeros, val)
        for j in members:
            p[j] = top[1][j]
    return p


def extra(ops):
    """RORs gcc 12 would add to these operations: a value rotated twice by
    the same amount, a BIC by 32 or more."""
    seen = set()
    n = 0
    for dst, op, _, src, rot in ops:
        if not rot:
            continue
        if op == '&~' and rot >= 32:
            n += 1
        key = (src, rot)
        if key in seen:
            n += 1
        seen.add(key)
    return n


def score(ch):
    p = fixed_point(ch)
    if isinstance(p, int):
        return 100.0 * p, None
    _, ops = round_ops(p, ch)
    return 10.0 * extra(ops) + sum(v != 0 for v in p) / 12.0, p


def search(seed, steps):
    rng = Rng(seed)
    ch = {'lead': [rng.below(5) for _ in range(5)],
          'ropt': [rng.below(2) for _ in range(5)],
          'topt': [rng.below(2) for _ in range(25)],
          'form': [rng.below(2) for _ in range(25)]}
    cur = score(ch)[0]
    best = (cur, ch)
    keys = ['lead', 'ropt', 'topt', 'topt', 'form', 'form']
    for s in range(steps):
        temp = 30.0 * (1 - s / steps) + 0.05
        new = {k: list(v) for k, v in ch.items()}
        k = keys[rng.below(len(keys))]
        new[k][rng.below(len(new[k]))] = rng.below(5 if k == 'lead' else 2)
        c = score(new)[0]
        if c <= cur or rng.unit() < math.exp((cur - c) / temp):
            ch, cur = new, c
            if c < best[0]:
                best = (c, new)
    return best


def lane(v, a, e):
    kind, n = v
    if kind in 'LE':
        return '%s##%02d' % (a if kind == 'L' else e, n)
    if kind == 'B':
        return 'b%02d' % n
    return kind.lower() + str(n)


def ror(x, n):
    return 'NKS_ROR(%s, %d)' % (x, n) if n else x


def statement(w, dst, ex):
    """dst = ex; in the macro, wrapped at 79 columns before a ' ^ '."""
    line = "        %s =" % dst
    for n, term in enumerate(ex.split(" ^ ")):
        piece = (" " if n == 0 else " ^ ") + term
        if len(line) + len(piece) + 3 > 79:
            w(line + " \\")
            line = "            " + piece.lstrip()
        else:
            line += piece
    w(line + "; \\")


def generate():
    p = fixed_point(CHOICE)
    assert not isinstance(p, int), "CHOICE is not a fixed point"
    u, ops = round_ops(p, CHOICE)
    assert u == p and extra(ops) == 0, "CHOICE needs a ROR"
    out = []
    w = out.append
    w("/* SPDX-License-Identifier: Apache-2.0 */")
    w("/* Generated by arch/neon/gen_keccak_scalar.py: do not edit. The "
      "scalar")
    w(" * Keccak-f[1600] round with lazy rotation (the script says how).")
    w(" *")
    w(" * Lane j of a state in this form holds ror(A_j, P_j), the true "
      "lane rotated")
    w(" * right by P_j:")
    for y in range(5):
        w(" *   " + "  ".join("P_%02d %2d" % (5 * y + x, p[5 * y + x])
                             for x in range(5)))
    w(" * NKS_ENTER(A) puts the 25 uint64_t A##00 .. A##24 into this "
      "form,")
    w(" * NKS_LEAVE(A) takes them out of it; NKS_ROUND(A, E, rc) is a round "
      "(FIPS")
    w(" * 202 §3.3, Algorithm 7's Rnd with round constant rc) from A to E, "
      "both in")
    w(" * this form. E may be A: every lane of A is read before E##00 is "
      "written.")
    w(" * Nothing depends on the state's values (constant time). */")
    w("#ifndef MLKEM_ARCH_NEON_KECCAK_SCALAR_ROUND_H")
    w("#define MLKEM_ARCH_NEON_KECCAK_SCALAR_ROUND_H")
    w("")
    w("#include <stdint.h>")
    w("")
    w("/* ror(x, n) for 0 < n < 64: the shifted-register operand of EOR / "
      "BIC. */")
    w("#define NKS_ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))")
    for name, sign in (("ENTER", 1), ("LEAVE", -1)):
        w("")
        w("#define NKS_%s(A) \\" % name)
        w("    do { \\")
        for j in range(25):
            if p[j]:
                w("        A##%02d = NKS_ROR(A##%02d, %d); \\"
                  % (j, j, sign * p[j] % 64))
        w("    } while (0)")
    w("")
    w("#define NKS_ROUND(A, E, rc) \\")
    w("    do { \\")
    w("        uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4; \\")
    w("        uint64_t b00, b01, b02, b03, b04, b05, b06, b07, b08, b09; \\")
    w("        uint64_t b10, b11, b12, b13, b14, b15, b16, b17, b18, b19; \\")
    w("        uint64_t b20, b21, b22, b23, b24; \\")
    sts = schedule(statements(ops))
    for dst, _, sops in sts:
        if dst[0] == 'E':  # T = s1 &~ ror(s2); E = T ^ ror(B) or B ^ ror(T)
            (_, _, t1, t2, trot), (_, _, e1, e2, erot) = sops
            tx = "(%s & ~%s)" % (lane(t1, "A", "E"),
                                  ror(lane(t2, "A", "E"), trot))
            if e1[0] == 'T':
                ex = "%s ^ %s" % (tx, ror(lane(e2, "A", "E"), erot))
            else:
                ex = "%s ^ %s" % (lane(e1, "A", "E"), ror(tx, erot))
            statement(w, lane(dst, "A", "E"), ex)
            if dst == ('E', 0):
                w("        E##00 ^= %s; /* iota */ \\"
                  % ror("(uint64_t)(rc)", p[0]))
            continue
        ex = lane(sops[0][2], "A", "E")
        for _, _, _, s2, rot in sops:
            ex += " ^ " + ror(lane(s2, "A", "E"), rot)
        statement(w, lane(dst, "A", "E"), ex)
    w("    } while (0)")
    w("")
    w("#endif /* MLKEM_ARCH_NEON_KECCAK_SCALAR_ROUND_H */")
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    if args[:1] == ["--search"]:
        seed, steps = int(args[1]), int(args[2])
        best = search(seed, steps)
        print("score %.3f" % best[0])
        print(best[1])
        return 0
    text = generate()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "keccak_scalar_round.h")
    if args == ["--check"]:
        with open(path) as f:
            if f.read() == text:
                return 0
        print("arch/neon/keccak_scalar_round.h differs from what "
              "gen_keccak_scalar.py writes: run it again (the header is not "
              "edited by hand)")
        return 1
    if args:
        print("usage: gen_keccak_scalar.py [--check | --search SEED STEPS]")
        return 2
    with open(path, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
