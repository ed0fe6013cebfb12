/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_shake.c: see test_shake.h. FIPS 202 written out step by step; the
 * round constants and rotation offsets are derived at first use from the
 * spec's definitions (Algorithm 5 rc(t), Algorithm 2 rho offsets) instead
 * of being typed in as tables.
 */
#include "test/common/test_shake.h"

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

static uint64_t round_const[24];
static unsigned rho_offset[25];
static unsigned pi_source[25];
static int tables_ready;

/* FIPS 202 Algorithm 5: rc(t), one bit of an LFSR. */
static unsigned rc_bit(unsigned t)
{
    unsigned r = 1; /* R = 10000000, bit i of r is R[i] */
    for (unsigned i = 1; i <= t % 255; i++) {
        unsigned b8;
        r <<= 1; /* R = 0 || R */
        b8 = (r >> 8) & 1;
        r ^= b8 * (1u | 1u << 4 | 1u << 5 | 1u << 6);
        r &= 0xff; /* Trunc8 */
    }
    return r & 1;
}

static void make_tables(void)
{
    unsigned x = 1, y = 0;

    /* Algorithm 6 (iota): RC[2^j - 1] = rc(j + 7 i_r) for j = 0..6. */
    for (unsigned ir = 0; ir < 24; ir++) {
        uint64_t rc = 0;
        for (unsigned j = 0; j <= 6; j++)
            rc |= (uint64_t)rc_bit(j + 7 * ir) << ((1u << j) - 1);
        round_const[ir] = rc;
    }
    /* Algorithm 2 (rho): lane (x, y) rotates by (t+1)(t+2)/2 mod 64. */
    rho_offset[0] = 0;
    for (unsigned t = 0; t < 24; t++) {
        unsigned nx = y, ny = (2 * x + 3 * y) % 5;
        rho_offset[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
        x = nx;
        y = ny;
    }
    /* Algorithm 3 (pi): A'[x, y] = A[(x + 3y) mod 5, x]. */
    for (x = 0; x < 5; x++)
        for (y = 0; y < 5; y++)
            pi_source[x + 5 * y] = (x + 3 * y) % 5 + 5 * x;
    tables_ready = 1;
}

static uint64_t rotl(uint64_t v, unsigned n)
{
    return (v << (n & 63)) | (v >> ((64 - n) & 63));
}

/* Keccak-p[1600, 24] (Algorithm 7), lane (x, y) = a[x + 5y]. */
static void keccak_f1600(uint64_t a[25])
{
    for (unsigned ir = 0; ir < 24; ir++) {
        uint64_t c[5], d[5], b[25];
        /* theta (Algorithm 1) */
        for (unsigned x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        d[0] = c[4] ^ rotl(c[1], 1);
        d[1] = c[0] ^ rotl(c[2], 1);
        d[2] = c[1] ^ rotl(c[3], 1);
        d[3] = c[2] ^ rotl(c[4], 1);
        d[4] = c[3] ^ rotl(c[0], 1);
        for (unsigned i = 0; i < 25; i++)
            a[i] ^= d[i % 5];
        /* rho and pi (Algorithms 2, 3) */
        for (unsigned i = 0; i < 25; i++)
            b[i] = rotl(a[pi_source[i]], rho_offset[pi_source[i]]);
        /* chi (Algorithm 4) */
        for (unsigned y = 0; y < 25; y += 5) {
            a[y + 0] = b[y + 0] ^ (~b[y + 1] & b[y + 2]);
            a[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
            a[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
            a[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y + 0]);
            a[y + 4] = b[y + 4] ^ (~b[y + 0] & b[y + 1]);
        }
        /* iota (Algorithm 6) */
        a[0] ^= round_const[ir];
    }
}

static void init(test_shake *x, unsigned rate)
{
    if (!tables_ready)
        make_tables();
    memset(x, 0, sizeof(*x));
    x->rate = rate;
}

void test_shake128_init(test_shake *x) { init(x, 168); }
void test_shake256_init(test_shake *x) { init(x, 136); }

static void xor_byte(test_shake *x, unsigned i, uint8_t v)
{
    x->s[i / 8] ^= (uint64_t)v << (8 * (i % 8));
}

void test_shake_absorb(test_shake *x, const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        xor_byte(x, x->pos++, in[i]);
        if (x->pos == x->rate) {
            keccak_f1600(x->s);
            x->pos = 0;
        }
    }
}

void test_shake_squeeze(test_shake *x, uint8_t *out, size_t len)
{
    if (!x->squeezing) {
        /* SHAKE suffix 1111 then pad10*1 (FIPS 202 §6.2, §5.1). */
        xor_byte(x, x->pos, 0x1f);
        xor_byte(x, x->rate - 1, 0x80);
        keccak_f1600(x->s);
        x->pos = 0;
        x->squeezing = 1;
    }
    while (len > 0) {
        if (x->pos == x->rate) {
            keccak_f1600(x->s);
            x->pos = 0;
        }
        if ((x->pos % 8) == 0 && len >= 8 && x->rate - x->pos >= 8) {
            uint64_t w = x->s[x->pos / 8];
            for (unsigned j = 0; j < 8; j++)
                out[j] = (uint8_t)(w >> (8 * j));
            out += 8;
            len -= 8;
            x->pos += 8;
        } else {
            *out++ = (uint8_t)(x->s[x->pos / 8] >> (8 * (x->pos % 8)));
            len--;
            x->pos++;
        }
    }
}

/* ---- self-test against libcrypto ----------------------------------------- */

static int evp_shake(const char *name, const uint8_t *in, size_t inlen,
                     uint8_t *out, size_t outlen)
{
    EVP_MD *md = EVP_MD_fetch(NULL, name, NULL);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = md != NULL && ctx != NULL &&
             EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
             EVP_DigestUpdate(ctx, in, inlen) == 1 &&
             EVP_DigestFinalXOF(ctx, out, outlen) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
    return ok ? 0 : -1;
}

int test_shake_selftest(void)
{
    static const size_t inlens[] = {0, 1, 8, 135, 136, 137, 167, 168, 169, 500};
    static const size_t chunks[] = {1, 7, 8, 136, 168, 200, 1000};
    uint8_t in[500], want[1000], got[1000];

    for (size_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 7 + 3);
    for (int v = 0; v < 2; v++) {
        const char *name = v == 0 ? "SHAKE128" : "SHAKE256";
        for (size_t a = 0; a < sizeof(inlens) / sizeof(inlens[0]); a++) {
            size_t inlen = inlens[a];
            if (evp_shake(name, in, inlen, want, sizeof(want)) != 0) {
                fprintf(stderr, "FAIL: libcrypto %s unavailable\n", name);
                return -1;
            }
            for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
                test_shake x;
                size_t done = 0, step = chunks[c];
                if (v == 0)
                    test_shake128_init(&x);
                else
                    test_shake256_init(&x);
                /* absorb in two uneven parts, squeeze in varying steps */
                test_shake_absorb(&x, in, inlen / 3);
                test_shake_absorb(&x, in + inlen / 3, inlen - inlen / 3);
                while (done < sizeof(got)) {
                    size_t n = sizeof(got) - done < step ? sizeof(got) - done
                                                         : step;
                    test_shake_squeeze(&x, got + done, n);
                    done += n;
                    step = step % 97 + 1 + step; /* vary the read size */
                }
                if (memcmp(got, want, sizeof(got)) != 0) {
                    fprintf(stderr, "FAIL: test SHAKE differs from libcrypto "
                            "%s (input %zu bytes, reads from %zu)\n",
                            name, inlen, chunks[c]);
                    return -1;
                }
            }
        }
    }
    return 0;
}
