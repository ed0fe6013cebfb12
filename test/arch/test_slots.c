/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_slots.c: every slot of every backend against the portable slot, on
 * edge inputs within each contract (keccak/keccak_kernels.h,
 * kem/poly_kernels.h). A new backend gets this test for free: the backends
 * come from arch/dispatch.h's table; one this CPU cannot run is reported
 * and left out. The portable slots themselves are checked against the
 * specs by test/keccak and test/kem.
 *
 * What "equal" means per slot:
 *   - Keccak: byte-exact states, read through each set's own
 *     extract_bytes (a set owns its x4 / x8 layout);
 *   - ntt, ntt_inv, multiply_ntts_acc, mulcache, poly_reduce, poly_tomont:
 *     congruent mod q to the portable result and within the contract's
 *     bound (representatives may differ); T_q elements are compared in
 *     the spec's order, read back through the set's own byte_encode_12;
 *   - the byte encodings, compressions, CBD and rejection sampling:
 *     exactly equal output (they are functions of their input), the
 *     ByteDecode_12 verdict exactly, and the rejection loop's count and
 *     accepted values (r[n .. len) is scratch by contract), writing nothing
 *     at or beyond r[len].
 * Inputs: all-zero, extremes of each bound (q - 1, -(q - 1), q where
 * allowed, -32768 and 32767 where any int16_t is allowed), alternating
 * signs, compression rounding boundaries, and seeded random values; the
 * Keccak byte functions at lengths 0, 1, rate - 1, rate, rate + 1 and at
 * unaligned offsets.
 */
#include <stdio.h>
#include <string.h>

#include "arch/dispatch.h"
#include "keccak/keccak_kernels.h"
#include "kem/poly.h"
#include "kem/poly_kernels.h"
#include "test/common/test_util.h"
#include "test/kem/kem_test.h"

#define Q 3329

static const struct mlkem_keccak_kernels *const kp =
    &mlkem_keccak_kernels_portable;
static const struct mlkem_poly_kernels *const pp = &mlkem_poly_kernels_portable;

/* ---- Keccak ---------------------------------------------------------------- */

static void check_f1600(const char *be, const struct mlkem_keccak_kernels *k,
                        test_rng *rng)
{
    for (unsigned it = 0; it < 50; it++) {
        uint64_t a[25], b[25];
        for (unsigned j = 0; j < 25; j++)
            a[j] = it == 0 ? 0 : it == 1 ? ~(uint64_t)0 : test_rng_u64(rng);
        memcpy(b, a, sizeof(a));
        k->f1600(a);
        kp->f1600(b);
        TEST_CHECK(memcmp(a, b, sizeof(a)) == 0, "[%s] f1600 state %u", be, it);
    }
}

/* One x4 / x8 set under test and the portable model, driven through the
 * same operations; states compared through each set's extract_bytes. The
 * two widths share the code through these pointers. */
typedef struct {
    unsigned n;
    void (*init)(const struct mlkem_keccak_kernels *, void *);
    void (*xor_bytes)(const struct mlkem_keccak_kernels *, void *, unsigned,
                      unsigned, const uint8_t *, size_t);
    void (*extract)(const struct mlkem_keccak_kernels *, const void *,
                    unsigned, unsigned, uint8_t *, size_t);
    void (*permute)(const struct mlkem_keccak_kernels *, void *);
    void (*clear_lane)(const struct mlkem_keccak_kernels *, void *, unsigned);
} xn_ops;

static void x4_init(const struct mlkem_keccak_kernels *k, void *s)
{
    k->x4_init(s);
}
static void x4_xor(const struct mlkem_keccak_kernels *k, void *s, unsigned l,
                   unsigned o, const uint8_t *in, size_t len)
{
    k->x4_xor_bytes(s, l, o, in, len);
}
static void x4_ext(const struct mlkem_keccak_kernels *k, const void *s,
                   unsigned l, unsigned o, uint8_t *out, size_t len)
{
    k->x4_extract_bytes(s, l, o, out, len);
}
static void x4_perm(const struct mlkem_keccak_kernels *k, void *s)
{
    k->x4_permute(s);
}
static void x4_clear(const struct mlkem_keccak_kernels *k, void *s,
                     unsigned l)
{
    k->x4_clear_lane(s, l);
}
static void x8_init(const struct mlkem_keccak_kernels *k, void *s)
{
    k->x8_init(s);
}
static void x8_xor(const struct mlkem_keccak_kernels *k, void *s, unsigned l,
                   unsigned o, const uint8_t *in, size_t len)
{
    k->x8_xor_bytes(s, l, o, in, len);
}
static void x8_ext(const struct mlkem_keccak_kernels *k, const void *s,
                   unsigned l, unsigned o, uint8_t *out, size_t len)
{
    k->x8_extract_bytes(s, l, o, out, len);
}
static void x8_perm(const struct mlkem_keccak_kernels *k, void *s)
{
    k->x8_permute(s);
}

static void x8_clear(const struct mlkem_keccak_kernels *k, void *s,
                     unsigned l)
{
    k->x8_clear_lane(s, l);
}

static const xn_ops ops_x4 = {4, x4_init, x4_xor, x4_ext, x4_perm, x4_clear};
static const xn_ops ops_x8 = {8, x8_init, x8_xor, x8_ext, x8_perm, x8_clear};

static int xn_same(const xn_ops *o, const struct mlkem_keccak_kernels *k,
                   const void *st, const void *model)
{
    for (unsigned l = 0; l < o->n; l++) {
        uint8_t a[200], b[200];
        o->extract(k, st, l, 0, a, sizeof(a));
        o->extract(kp, model, l, 0, b, sizeof(b));
        if (memcmp(a, b, sizeof(a)) != 0)
            return 0;
    }
    return 1;
}

static void check_xn(const char *be, const struct mlkem_keccak_kernels *k,
                     const xn_ops *o, test_rng *rng)
{
    static const unsigned lens[] = {0, 1, 7, 8, 9, 135, 136, 137,
                                    167, 168, 169, 199, 200};
    mlkem_keccak_x8 st, model; /* an x8 holds an x4 too */
    uint8_t in[200], a[200], b[200];

    o->init(k, &st);
    o->init(kp, &model);
    TEST_CHECK(xn_same(o, k, &st, &model), "[%s] x%u init", be, o->n);
    for (unsigned li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        for (unsigned off = 0; off + lens[li] <= 200; off += 1 + 13 * off) {
            const unsigned lane = (li + off) % o->n;
            test_rng_bytes(rng, in, sizeof(in));
            o->xor_bytes(k, &st, lane, off, in, lens[li]);
            o->xor_bytes(kp, &model, lane, off, in, lens[li]);
            TEST_CHECK(xn_same(o, k, &st, &model),
                       "[%s] x%u xor_bytes lane %u offset %u length %u", be,
                       o->n, lane, off, lens[li]);
            /* extract at the same unaligned place */
            memset(a, 0xa5, sizeof(a));
            memset(b, 0xa5, sizeof(b));
            o->extract(k, &st, lane, off, a, lens[li]);
            o->extract(kp, &model, lane, off, b, lens[li]);
            TEST_CHECK(memcmp(a, b, sizeof(a)) == 0,
                       "[%s] x%u extract_bytes lane %u offset %u length %u",
                       be, o->n, lane, off, lens[li]);
        }
        o->permute(k, &st);
        o->permute(kp, &model);
        TEST_CHECK(xn_same(o, k, &st, &model), "[%s] x%u permute after %u",
                   be, o->n, lens[li]);
    }
    /* All-ones lanes. */
    memset(in, 0xff, sizeof(in));
    for (unsigned l = 0; l < o->n; l++) {
        o->xor_bytes(k, &st, l, 0, in, 200);
        o->xor_bytes(kp, &model, l, 0, in, 200);
    }
    o->permute(k, &st);
    o->permute(kp, &model);
    TEST_CHECK(xn_same(o, k, &st, &model), "[%s] x%u all-ones", be, o->n);
    /* clear_lane: one instance back to the zero state, the others kept
     * (the comparison with the model after each clear), then a permutation
     * of the mixed state. */
    for (unsigned i = 0; i < o->n; i++) {
        const unsigned lane = (3 * i + 1) % o->n;
        static const uint8_t zero[200];
        o->clear_lane(k, &st, lane);
        o->clear_lane(kp, &model, lane);
        o->extract(k, &st, lane, 0, a, sizeof(a));
        TEST_CHECK(memcmp(a, zero, sizeof(a)) == 0 &&
                       xn_same(o, k, &st, &model),
                   "[%s] x%u clear_lane %u", be, o->n, lane);
        if (i % 2 == 1) {
            o->permute(k, &st);
            o->permute(kp, &model);
        }
    }
    TEST_CHECK(xn_same(o, k, &st, &model), "[%s] x%u permute after clears",
               be, o->n);
}

/* ---- Polynomials ------------------------------------------------------------- */

/* Fill a with a pattern: 0 all zero, 1 all hi, 2 all lo, 3 alternating
 * hi / lo, otherwise seeded values in [lo, hi]. */
static void pattern(int16_t *a, unsigned n, unsigned kind, int32_t lo,
                    int32_t hi, test_rng *rng)
{
    for (unsigned i = 0; i < n; i++) {
        switch (kind) {
        case 0: a[i] = 0; break;
        case 1: a[i] = (int16_t)hi; break;
        case 2: a[i] = (int16_t)lo; break;
        case 3: a[i] = (int16_t)(i & 1 ? hi : lo); break;
        default:
            a[i] = (int16_t)(lo + (int32_t)test_rng_below(
                                       rng, (uint64_t)(hi - lo + 1)));
        }
    }
}
#define KINDS 24

/* x congruent to y mod q and |x| < bound. */
static int congruent(const int16_t *x, const int16_t *y, unsigned n,
                     int32_t bound)
{
    for (unsigned i = 0; i < n; i++)
        if (x[i] <= -bound || x[i] >= bound || kt_modq(x[i]) != kt_modq(y[i]))
            return 0;
    return 1;
}

/* A spec-order T_q element into set k's order. */
static void pack(const struct mlkem_poly_kernels *k, int16_t a[256])
{
    k->ntt_pack(a);
}

static void check_ntt(const char *be, const struct mlkem_poly_kernels *k,
                      test_rng *rng)
{
    for (unsigned kind = 0; kind < KINDS; kind++) {
        int16_t a[256], b[256], sa[256];
        /* NTT: |a| < q in, |r| < 8q out. */
        pattern(a, 256, kind, -(Q - 1), Q - 1, rng);
        memcpy(b, a, sizeof(a));
        k->ntt(a);
        pp->ntt(b);
        TEST_CHECK(congruent(a, a, 256, 8 * Q), "[%s] ntt bound, kind %u", be,
                   kind);
        kt_to_spec_order(k, a, sa);
        TEST_CHECK(congruent(sa, b, 256, Q), "[%s] ntt, kind %u", be, kind);

        /* NTT^-1: any int16_t in (given in the spec's order, packed),
         * |r| < q out. */
        pattern(a, 256, kind, -32768, 32767, rng);
        memcpy(b, a, sizeof(a));
        pack(k, a);
        k->ntt_inv(a);
        pp->ntt_inv(b);
        TEST_CHECK(congruent(a, b, 256, Q), "[%s] ntt_inv, kind %u", be, kind);

        /* ntt_pack keeps the values: packed then read back = input. */
        pattern(a, 256, kind, 0, Q - 1, rng);
        memcpy(b, a, sizeof(a));
        pack(k, a);
        kt_to_spec_order(k, a, sa);
        TEST_CHECK(memcmp(sa, b, sizeof(b)) == 0, "[%s] ntt_pack, kind %u", be,
                   kind);
    }
}

static void check_multiply(const char *be, const struct mlkem_poly_kernels *k,
                           test_rng *rng)
{
    for (unsigned kind = 0; kind < KINDS; kind++) {
        const unsigned n = 1 + kind % 4;
        int16_t a[4][256], b[4][256], ka[4][256], kb[4][256];
        int16_t pc[4][128], kc[4][128], r[256], s[256], sr[256];
        /* Contract: |a| <= q, |b| < q. */
        for (unsigned i = 0; i < n; i++) {
            pattern(a[i], 256, kind, -Q, Q, rng);
            pattern(b[i], 256, (kind + i) % KINDS, -(Q - 1), Q - 1, rng);
            memcpy(ka[i], a[i], sizeof(a[i]));
            memcpy(kb[i], b[i], sizeof(b[i]));
            pack(k, ka[i]);
            pack(k, kb[i]);
            pp->mulcache(pc[i], b[i]);
            k->mulcache(kc[i], kb[i]);
        }
        pp->multiply_ntts_acc(r, &a[0][0], &b[0][0], &pc[0][0], n);
        k->multiply_ntts_acc(s, &ka[0][0], &kb[0][0], &kc[0][0], n);
        TEST_CHECK(congruent(s, s, 256, Q), "[%s] multiply bound, kind %u",
                   be, kind);
        kt_to_spec_order(k, s, sr);
        TEST_CHECK(congruent(sr, r, 256, Q), "[%s] multiply k=%u, kind %u", be,
                   n, kind);
    }
}

static void check_reduce(const char *be, const struct mlkem_poly_kernels *k)
{
    /* Every int16_t, 256 at a time. */
    for (int32_t base = -32768; base < 32768; base += 256) {
        int16_t a[256], b[256], c[256];
        for (unsigned i = 0; i < 256; i++)
            a[i] = b[i] = c[i] = (int16_t)(base + (int32_t)i);
        k->poly_reduce(a);
        TEST_CHECK(congruent(a, c, 256, Q), "[%s] poly_reduce from %d", be,
                   base);
        memcpy(a, c, sizeof(a));
        k->poly_tomont(a);
        pp->poly_tomont(b);
        TEST_CHECK(congruent(a, b, 256, Q), "[%s] poly_tomont from %d", be,
                   base);
    }
}

static void check_encodings(const char *be, const struct mlkem_poly_kernels *k,
                            test_rng *rng)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    for (unsigned kind = 0; kind < KINDS; kind++) {
        int16_t a[256], ka[256], r1[256], r2[256];
        uint8_t x[384], y[384];

        /* ByteEncode_12: |a| < q, spec order in, spec bytes out. */
        pattern(a, 256, kind, -(Q - 1), Q - 1, rng);
        memcpy(ka, a, sizeof(a));
        pack(k, ka);
        k->byte_encode_12(x, ka);
        pp->byte_encode_12(y, a);
        TEST_CHECK(memcmp(x, y, 384) == 0, "[%s] byte_encode_12, kind %u", be,
                   kind);

        /* ByteDecode_12 of any bytes: the verdict, and for reduced input
         * the values (read back in the spec's order). */
        if (kind < 4)
            memset(x, kind == 0 ? 0 : kind == 1 ? 0xff : 0x0c, 384);
        else
            test_rng_bytes(rng, x, 384);
        if (kind >= 12) { /* reduced input: q - 1 at the ends, random rest */
            pattern(a, 256, kind, 0, Q - 1, rng);
            a[0] = a[255] = Q - 1;
            pp->byte_encode_12(x, a);
        } else if (kind >= 8) { /* one value exactly q (the §7.2 boundary),
                                 * at a different position each time */
            pattern(a, 256, 4, 0, Q - 1, rng);
            a[(kind - 8) * 85] = Q;
            pp->byte_encode_12(x, a);
        }
        const uint32_t vk = k->byte_decode_12(r1, x);
        const uint32_t vp = pp->byte_decode_12(r2, x);
        TEST_CHECK(vk == vp, "[%s] byte_decode_12 verdict %08x, want %08x",
                   be, vk, vp);
        if (vp == 0xffffffffu) {
            kt_to_spec_order(k, r1, r1);
            TEST_CHECK(memcmp(r1, r2, sizeof(r1)) == 0,
                       "[%s] byte_decode_12 values, kind %u", be, kind);
        }

        /* Compress / decompress for every d, normal domain. */
        for (unsigned t = 0; t < 5; t++) {
            const unsigned d = ds[t];
            pattern(a, 256, kind, -(Q - 1), Q - 1, rng);
            if (kind == 5) /* the rounding boundaries of Compress_d */
                for (unsigned i = 0; i < 256; i++) {
                    int32_t y0 = (int32_t)(i % (1u << d));
                    a[i] = (int16_t)((((2 * y0 + 1) * Q) >> (d + 1)) +
                                     (int32_t)(i / (1u << d) % 2));
                    if (a[i] >= Q)
                        a[i] = Q - 1;
                }
            memset(x, 0x5a, sizeof(x));
            memset(y, 0x5a, sizeof(y));
            k->byte_encode_compress(x, a, d);
            pp->byte_encode_compress(y, a, d);
            TEST_CHECK(memcmp(x, y, sizeof(x)) == 0,
                       "[%s] byte_encode_compress d=%u, kind %u", be, d, kind);
            if (kind < 2)
                memset(x, kind ? 0xff : 0, 32 * d);
            else
                test_rng_bytes(rng, x, 32 * d);
            k->decompress_byte_decode(r1, x, d);
            pp->decompress_byte_decode(r2, x, d);
            TEST_CHECK(memcmp(r1, r2, sizeof(r1)) == 0,
                       "[%s] decompress_byte_decode d=%u, kind %u", be, d,
                       kind);
        }
    }
}

/* The rejection loop on one buffer: the same count and values as the
 * portable loop, r[0 .. count) equal, and nothing written at r[len ..]
 * (between count and len a kernel may leave anything: callers continue
 * there). */
static void check_rej(const char *be, const struct mlkem_poly_kernels *k,
                      const uint8_t *buf, size_t buflen, unsigned len)
{
    int16_t r1[256 + 32], r2[256 + 32];
    for (unsigned i = 0; i < 256 + 32; i++)
        r1[i] = r2[i] = 0x5a5a;
    const unsigned n1 = k->sample_ntt_rej(r1, len, buf, buflen);
    const unsigned n2 = pp->sample_ntt_rej(r2, len, buf, buflen);
    TEST_CHECK(n1 == n2, "[%s] sample_ntt_rej count %u, want %u (len %u, "
               "buflen %zu)", be, n1, n2, len, buflen);
    TEST_CHECK(memcmp(r1, r2, sizeof(int16_t) * (n2 < n1 ? n2 : n1)) == 0,
               "[%s] sample_ntt_rej values (len %u, buflen %zu)", be, len,
               buflen);
    for (unsigned i = len; i < 256 + 32; i++)
        TEST_CHECK(r1[i] == 0x5a5a, "[%s] sample_ntt_rej wrote r[%u] past "
                   "len %u (buflen %zu)", be, i, len, buflen);
}

/* ByteEncode_d of 256 values below 2^d (Algorithm 5, bit by bit), to
 * feed decompress_byte_decode chosen values. */
static void pack_d(uint8_t *out, const uint16_t v[256], unsigned d)
{
    memset(out, 0, 32 * d);
    for (unsigned i = 0; i < 256; i++)
        for (unsigned b = 0; b < d; b++)
            out[(d * i + b) / 8] |= (uint8_t)(((v[i] >> b) & 1) << ((d * i + b) % 8));
}

/* Compress_d of every input the contract allows (each a in (-q, q), at
 * every lane position over the runs) and Decompress_d of every d-bit value
 * at many positions: vector kernels use fixed-point formulas whose
 * exactness is a property of the whole input range. */
static void check_compress_all(const char *be,
                               const struct mlkem_poly_kernels *k)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    for (unsigned t = 0; t < 5; t++) {
        const unsigned d = ds[t];
        unsigned bad = 0;
        for (int32_t base = -(Q - 1); base < Q; base += 255) {
            int16_t a[256];
            uint8_t x[32 * 11 + 16], y[32 * 11 + 16];
            for (unsigned i = 0; i < 256; i++) {
                int32_t v = base + (int32_t)i;
                a[i] = (int16_t)(v >= Q ? v - 2 * Q + 1 : v);
            }
            memset(x, 0xa5, sizeof(x));
            memset(y, 0xa5, sizeof(y));
            k->byte_encode_compress(x, a, d);
            pp->byte_encode_compress(y, a, d);
            bad += memcmp(x, y, sizeof(x)) != 0;
        }
        TEST_CHECK(bad == 0, "[%s] byte_encode_compress d=%u: %u of the "
                   "exhaustive runs differ (or wrote past 32 d bytes)", be, d,
                   bad);
        bad = 0;
        for (unsigned base = 0; base < (1u << d); base += 7) {
            uint16_t v[256];
            uint8_t in[32 * 11];
            int16_t r1[256 + 16], r2[256];
            for (unsigned i = 0; i < 256; i++)
                v[i] = (uint16_t)((base + 3 * i) & ((1u << d) - 1));
            pack_d(in, v, d);
            r1[256] = 0x5a5a;
            k->decompress_byte_decode(r1, in, d);
            pp->decompress_byte_decode(r2, in, d);
            bad += memcmp(r1, r2, sizeof(r2)) != 0 || r1[256] != 0x5a5a;
        }
        TEST_CHECK(bad == 0, "[%s] decompress_byte_decode d=%u: %u runs differ",
                   be, d, bad);
    }
}

static void check_sampling(const char *be, const struct mlkem_poly_kernels *k,
                           test_rng *rng)
{
    for (unsigned kind = 0; kind < KINDS; kind++) {
        uint8_t buf[192];
        int16_t r1[256], r2[256];
        for (unsigned eta = 2; eta <= 3; eta++) {
            if (kind < 2)
                memset(buf, kind ? 0xff : 0, sizeof(buf));
            else
                test_rng_bytes(rng, buf, sizeof(buf));
            k->sample_poly_cbd(r1, buf, eta);
            pp->sample_poly_cbd(r2, buf, eta);
            TEST_CHECK(memcmp(r1, r2, sizeof(r1)) == 0,
                       "[%s] sample_poly_cbd eta=%u, kind %u", be, eta, kind);
        }
    }
    /* The rejection loop: buffer lengths 0 .. 3 blocks (multiples of 3),
     * caps 0 .. 256, mostly rejected / mostly accepted / random bytes, and
     * a canary at r[len ..]. */
    for (unsigned it = 0; it < 2000; it++) {
        uint8_t buf[3 * 168];
        const size_t buflen = 3 * (size_t)test_rng_below(rng, 169);
        const unsigned len =
            it < 257 ? it : (unsigned)test_rng_below(rng, 257);
        test_rng_bytes(rng, buf, buflen);
        if (it % 5 == 1)
            for (size_t i = 0; i < buflen; i++)
                buf[i] |= 0xd0;
        else if (it % 5 == 2)
            for (size_t i = 0; i < buflen; i++)
                buf[i] &= 0x3f;
        check_rej(be, k, buf, buflen, len);
    }
    /* Every accept / reject pattern of eight consecutive candidates (a
     * vector kernel may look patterns up in a table): pattern m repeated
     * over the buffer, candidate j accepted (value j + 1) if bit j of m is
     * set, else rejected (0xfff), with the patterns of neighbouring groups
     * varied so that each also meets the others. */
    for (unsigned m = 0; m < 256; m++) {
        uint8_t buf[3 * 168];
        for (unsigned g = 0; g < sizeof(buf) / 12; g++) {
            const unsigned pm = g % 2 ? m : (m + 37 * g) & 0xff;
            uint16_t v[8];
            for (unsigned j = 0; j < 8; j++)
                v[j] = (pm >> j) & 1 ? (uint16_t)(j + 1 + 8 * g) : 0xfff;
            for (unsigned j = 0; j < 4; j++) {
                buf[12 * g + 3 * j] = (uint8_t)v[2 * j];
                buf[12 * g + 3 * j + 1] =
                    (uint8_t)((v[2 * j] >> 8) | (v[2 * j + 1] << 4));
                buf[12 * g + 3 * j + 2] = (uint8_t)(v[2 * j + 1] >> 4);
            }
        }
        check_rej(be, k, buf, sizeof(buf), 256);
        check_rej(be, k, buf, sizeof(buf), 200 + m % 56);
    }
}

/* sample_ntt_x4 on x4 states built with the backend's own Keccak set
 * (its layout; the backend is installed, as the portable slot reads the
 * state through the installed set): random states (many candidates >= q in
 * some lanes), lane masks, and starting counts from 0 to 255 (so the 256
 * cap falls inside a block); compared with the portable rejection loop on
 * the bytes the set's extract_bytes gives, and nothing written past
 * r[l][256]. */
static void check_sample_x4(const char *be, const struct mlkem_arch_backend *b,
                            test_rng *rng)
{
    const struct mlkem_keccak_kernels *kk = b->keccak;
    void (*x4)(const mlkem_keccak_x4 *, unsigned, int16_t *const[4],
               unsigned[4]) = b->poly->sample_ntt_x4;
    TEST_CHECK(mlkem_arch_use(b->name), "[%s] cannot install", be);
    for (unsigned it = 0; it < 600; it++) {
        mlkem_keccak_x4 st;
        int16_t got[4][256 + 16], want[4][256 + 16];
        int16_t *gp[4], *wp[4];
        unsigned gc[4], wc[4];
        const unsigned lanes = it < 16 ? it : (unsigned)test_rng_below(rng, 16);
        kk->x4_init(&st);
        for (unsigned l = 0; l < 4; l++) {
            uint8_t in[200];
            test_rng_bytes(rng, in, sizeof(in));
            if ((it + l) % 3 == 0)
                for (unsigned i = 0; i < 200; i++)
                    in[i] |= 0xd0;
            kk->x4_xor_bytes(&st, l, 0, in, sizeof(in));
        }
        if (it % 2)
            kk->x4_permute(&st);
        for (unsigned l = 0; l < 4; l++) {
            gp[l] = got[l];
            wp[l] = want[l];
            gc[l] = wc[l] = it < 16 ? 0 : (unsigned)test_rng_below(rng, 256);
            for (unsigned i = 0; i < 256 + 16; i++)
                got[l][i] = want[l][i] = 0x5a5a;
        }
        x4(&st, lanes, gp, gc);
        for (unsigned l = 0; l < 4; l++) {
            uint8_t blk[168];
            if ((lanes >> l) & 1) {
                kk->x4_extract_bytes(&st, l, 0, blk, sizeof(blk));
                wc[l] += pp->sample_ntt_rej(wp[l] + wc[l], 256 - wc[l], blk,
                                            sizeof(blk));
            }
            TEST_CHECK(gc[l] == wc[l], "[%s] sample_ntt_x4 lane %u count %u, "
                       "want %u (mask %x)", be, l, gc[l], wc[l], lanes);
            TEST_CHECK(memcmp(got[l], want[l], sizeof(int16_t) * wc[l]) == 0,
                       "[%s] sample_ntt_x4 lane %u values", be, l);
            for (unsigned i = 256; i < 256 + 16; i++)
                TEST_CHECK(got[l][i] == 0x5a5a, "[%s] sample_ntt_x4 wrote "
                           "r[%u][%u]", be, l, i);
        }
    }
}

/* x4_permute_lanes: every listed state permuted as the portable x4 does
 * it (unlisted ones are the set's choice: not compared). */
static void check_x4_permute_lanes(const char *be,
                                   const struct mlkem_keccak_kernels *k,
                                   test_rng *rng)
{
    for (unsigned mask = 1; mask < 16; mask++) {
        mlkem_keccak_x4 st, model;
        uint8_t in[200], a[200], b[200];
        k->x4_init(&st);
        kp->x4_init(&model);
        for (unsigned l = 0; l < 4; l++) {
            test_rng_bytes(rng, in, sizeof(in));
            k->x4_xor_bytes(&st, l, 0, in, sizeof(in));
            kp->x4_xor_bytes(&model, l, 0, in, sizeof(in));
        }
        k->x4_permute_lanes(&st, mask);
        kp->x4_permute(&model);
        for (unsigned l = 0; l < 4; l++) {
            if (!((mask >> l) & 1))
                continue;
            k->x4_extract_bytes(&st, l, 0, a, sizeof(a));
            kp->x4_extract_bytes(&model, l, 0, b, sizeof(b));
            TEST_CHECK(memcmp(a, b, sizeof(a)) == 0,
                       "[%s] x4_permute_lanes mask %x lane %u", be, mask, l);
        }
    }
}

int main(void)
{
    size_t n;
    const struct mlkem_arch_backend *const *all = mlkem_arch_backends(&n);
    unsigned tested = 0;

    for (size_t i = 0; i < n; i++) {
        const struct mlkem_arch_backend *b = all[i];
        const int f0 = test_failure_count();
        test_rng rng;

        if (!mlkem_arch_runnable(b)) {
            printf("SKIP %s: this CPU cannot run it\n", b->name);
            continue;
        }
        test_rng_init(&rng, "test_slots");
        check_f1600(b->name, b->keccak, &rng);
        check_xn(b->name, b->keccak, &ops_x4, &rng);
        check_xn(b->name, b->keccak, &ops_x8, &rng);
        check_x4_permute_lanes(b->name, b->keccak, &rng);
        check_ntt(b->name, b->poly, &rng);
        check_multiply(b->name, b->poly, &rng);
        check_reduce(b->name, b->poly);
        check_encodings(b->name, b->poly, &rng);
        check_compress_all(b->name, b->poly);
        check_sampling(b->name, b->poly, &rng);
        check_sample_x4(b->name, b, &rng);
        printf("== backend %s: every slot %s\n", b->name,
               test_failure_count() == f0 ? "matches portable" : "FAILS");
        tested++;
    }
    TEST_CHECK(tested >= 1, "no backend tested");
    return test_finish("arch_slots");
}
