/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_keccakf.c: Keccak-f[1600] against known answers and against a
 * spec-literal implementation, under every backend.
 *
 * References
 *   [FIPS202] NIST FIPS 202, §3.2 (Algorithms 1-6), §3.3 (Algorithm 7).
 *   [KAT]     The Keccak team's KeccakF-1600-IntermediateValues.txt: the
 *             state after one and after two permutations of the all-zero
 *             state.
 *
 * The reference below follows the spec text step by step: rho offsets come
 * from the (x, y) walk of Algorithm 2, round constants from the LFSR rc(t)
 * of Algorithm 5, pi from A'[x, y] = A[(x + 3y) mod 5, x] (Algorithm 3).
 * It shares nothing with keccak/keccak_p1600.c (constants, lane
 * complementing, unrolling), so agreement on random states tests both.
 */
#include <stdio.h>
#include <string.h>

#include "keccak/keccak_kernels.h"
#include "keccak/keccak.h"
#include "test/common/test_backends.h"
#include "test/keccak/keccak_test.h"

/* [KAT]: Keccak-f[1600] applied once, then twice, to the zero state. */
static const uint64_t zero_once[25] = {
    0xF1258F7940E1DDE7ULL, 0x84D5CCF933C0478AULL, 0xD598261EA65AA9EEULL,
    0xBD1547306F80494DULL, 0x8B284E056253D057ULL, 0xFF97A42D7F8E6FD4ULL,
    0x90FEE5A0A44647C4ULL, 0x8C5BDA0CD6192E76ULL, 0xAD30A6F71B19059CULL,
    0x30935AB7D08FFC64ULL, 0xEB5AA93F2317D635ULL, 0xA9A6E6260D712103ULL,
    0x81A57C16DBCF555FULL, 0x43B831CD0347C826ULL, 0x01F22F1A11A5569FULL,
    0x05E5635A21D9AE61ULL, 0x64BEFEF28CC970F2ULL, 0x613670957BC46611ULL,
    0xB87C5A554FD00ECBULL, 0x8C3EE88A1CCF32C8ULL, 0x940C7922AE3A2614ULL,
    0x1841F924A2C509E4ULL, 0x16F53526E70465C2ULL, 0x75F644E97F30A13BULL,
    0xEAF1FF7B5CECA249ULL,
};
static const uint64_t zero_twice[25] = {
    0x2D5C954DF96ECB3CULL, 0x6A332CD07057B56DULL, 0x093D8D1270D76B6CULL,
    0x8A20D9B25569D094ULL, 0x4F9C4F99E5E7F156ULL, 0xF957B9A2DA65FB38ULL,
    0x85773DAE1275AF0DULL, 0xFAF4F247C3D810F7ULL, 0x1F1B9EE6F79A8759ULL,
    0xE4FECC0FEE98B425ULL, 0x68CE61B6B9CE68A1ULL, 0xDEEA66C4BA8F974FULL,
    0x33C43D836EAFB1F5ULL, 0xE00654042719DBD9ULL, 0x7CF8A9F009831265ULL,
    0xFD5449A6BF174743ULL, 0x97DDAD33D8994B40ULL, 0x48EAD5FC5D0BE774ULL,
    0xE3B8C8EE55B7B03CULL, 0x91A0226E649E42E9ULL, 0x900E3129E7BADD7BULL,
    0x202A9EC5FAA3CCE8ULL, 0x5B3402464E1C3DB6ULL, 0x609F4E62A44C1059ULL,
    0x20D06CD26A8FBF5CULL,
};

/* ---- The spec-literal reference ------------------------------------------ */

/* Algorithm 5, rc(t): the output bit of an 8-bit LFSR after t steps. */
static unsigned spec_rc_bit(unsigned t)
{
    unsigned r = 0x01; /* R = 10000000, R[0] is the low bit here */
    if (t % 255 == 0)
        return 1;
    for (unsigned i = 1; i <= t % 255; i++) {
        unsigned r8 = (r >> 7) & 1; /* R[8] after prepending 0 */
        r <<= 1;                    /* R = 0 || R */
        r ^= r8;                    /* R[0] ^= R[8] */
        r ^= r8 << 4;               /* R[4] ^= R[8] */
        r ^= r8 << 5;               /* R[5] ^= R[8] */
        r ^= r8 << 6;               /* R[6] ^= R[8] */
        r &= 0xFF;                  /* R = Trunc8(R) */
    }
    return r & 1;
}

/* Algorithm 6, iota's RC for round ir: bit 2^j - 1 is rc(j + 7 ir). */
static uint64_t spec_round_constant(unsigned ir)
{
    uint64_t rc = 0;
    for (unsigned j = 0; j <= 6; j++)
        rc |= (uint64_t)spec_rc_bit(j + 7 * ir) << ((1u << j) - 1);
    return rc;
}

static uint64_t rotl(uint64_t v, unsigned n)
{
    n %= 64;
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

/* Algorithm 7 with n_r = 24 on lanes A[x][y] = s[x + 5y]. */
static void spec_keccakf1600(uint64_t s[25])
{
    uint64_t a[5][5], b[5][5], c[5], d[5];
    unsigned rho[5][5];

    /* Algorithm 2, rho offsets: (x, y) = (1, 0), then (y, (2x + 3y) mod 5),
     * offset (t + 1)(t + 2) / 2 for t = 0..23; lane (0, 0) keeps 0. */
    memset(rho, 0, sizeof(rho));
    for (unsigned t = 0, x = 1, y = 0; t < 24; t++) {
        unsigned nx = y, ny = (2 * x + 3 * y) % 5;
        rho[x][y] = ((t + 1) * (t + 2) / 2) % 64;
        x = nx;
        y = ny;
    }

    for (unsigned x = 0; x < 5; x++)
        for (unsigned y = 0; y < 5; y++)
            a[x][y] = s[x + 5 * y];

    for (unsigned ir = 0; ir < 24; ir++) {
        /* Algorithm 1, theta. */
        for (unsigned x = 0; x < 5; x++)
            c[x] = a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4];
        for (unsigned x = 0; x < 5; x++)
            d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                a[x][y] ^= d[x];
        /* Algorithm 2, rho. */
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                a[x][y] = rotl(a[x][y], rho[x][y]);
        /* Algorithm 3, pi. */
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                b[x][y] = a[(x + 3 * y) % 5][x];
        /* Algorithm 4, chi. */
        for (unsigned x = 0; x < 5; x++)
            for (unsigned y = 0; y < 5; y++)
                a[x][y] = b[x][y] ^ (~b[(x + 1) % 5][y] & b[(x + 2) % 5][y]);
        /* Algorithm 6, iota. */
        a[0][0] ^= spec_round_constant(ir);
    }

    for (unsigned x = 0; x < 5; x++)
        for (unsigned y = 0; y < 5; y++)
            s[x + 5 * y] = a[x][y];
}

/* ---- Tests ---------------------------------------------------------------- */

static int lanes_eq(const char *what, const uint64_t *got,
                    const uint64_t *exp)
{
    for (unsigned i = 0; i < 25; i++) {
        if (got[i] != exp[i]) {
            fflush(stdout);
            fprintf(stderr, "    %s: lane %u is %016llx, expected %016llx\n",
                    what, i, (unsigned long long)got[i],
                    (unsigned long long)exp[i]);
            return 0;
        }
    }
    return 1;
}

/* The reference itself must reproduce the known answers, or agreement with
 * it would mean nothing. */
static int test_reference(void)
{
    const int before = test_failure_count();
    uint64_t s[25] = {0};

    /* A few round constants spelled out in FIPS 202 readers' tables. */
    TEST_CHECK(spec_round_constant(0) == 0x0000000000000001ULL, "RC[0]");
    TEST_CHECK(spec_round_constant(1) == 0x0000000000008082ULL, "RC[1]");
    TEST_CHECK(spec_round_constant(23) == 0x8000000080008008ULL, "RC[23]");
    spec_keccakf1600(s);
    TEST_CHECK(lanes_eq("reference, zero state once", s, zero_once), "KAT");
    spec_keccakf1600(s);
    TEST_CHECK(lanes_eq("reference, zero state twice", s, zero_twice), "KAT");
    return test_failure_count() - before;
}

static int run(const char *backend, void *arg)
{
    const int before = test_failure_count();
    test_rng rng;
    uint64_t s[25], t[25], u[25];

    (void)arg;
    test_rng_init(&rng, "test_keccakf");
    /* Known answers through the dispatched entry point. */
    memset(s, 0, sizeof(s));
    mlkem_keccak_f1600(s);
    TEST_CHECK(lanes_eq("mlkem_keccak_f1600, zero state once", s, zero_once),
             "backend %s", backend);
    mlkem_keccak_f1600(s);
    TEST_CHECK(lanes_eq("mlkem_keccak_f1600, zero state twice", s, zero_twice),
             "backend %s", backend);

    /* Random states, including all-ones lanes (they exercise the lane
     * complementing at entry and exit). */
    for (int i = 0; i < 200; i++) {
        for (unsigned j = 0; j < 25; j++)
            s[j] = (i % 10 == 9) ? ~(uint64_t)0 : test_rng_u64(&rng);
        memcpy(t, s, sizeof(s));
        memcpy(u, s, sizeof(s));
        spec_keccakf1600(s);
        mlkem_keccak_f1600(t);
        mlkem_keccak_f1600_portable(u);
        TEST_CHECK(lanes_eq("mlkem_keccak_f1600 vs reference", t, s),
                 "backend %s, state %d", backend, i);
        TEST_CHECK(lanes_eq("mlkem_keccak_f1600_portable vs reference", u, s),
                 "state %d", i);
    }
    return test_failure_count() - before;
}

int main(void)
{
    test_reference();
    TEST_CHECK(test_for_each_backend(run, NULL) == 0, "backend runs failed");
    return test_finish("keccak_f1600");
}
