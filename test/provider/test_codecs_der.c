/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codecs_der.c: unit test of provider/codecs_der.c, the strict DER
 * writer and reader for ML-KEM SubjectPublicKeyInfo and PrivateKeyInfo.
 *
 * Keys come from the kernel's KeyGen_internal with the fixed seed
 * d || z = 00 01 .. 3f. Expected encodings: the SHA-256 of what OpenSSL
 * 3.5.7's own encoder writes for that key in each of its six private key
 * formats (`openssl genpkey -pkeyopt hexseed:00..3f`, then `openssl pkey
 * -outform DER -provparam ml-kem.output_formats=<fmt>`), plus the prefixes
 * and lengths of each layout (codecs_der.h). Then the reader: every
 * form parses back to the same pointers, every truncation, a trailing
 * byte, wrong OIDs, parameters, versions, tags and lengths are rejected
 * with the expected reason (or classified as "not mine").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "kem/mlkem.h"
#include "provider/codecs_der.h"
#include "test/common/test_util.h"
#include "test_codecs_expected.h"

static void sha256_hex(const uint8_t *b, size_t n, char out[65])
{
    uint8_t md[32];
    unsigned int mdlen = 0;

    if (!EVP_Digest(b, n, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
        strcpy(out, "(sha256 failed)");
        return;
    }
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", md[i]);
}

static int unhex(const char *h, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;

        if (sscanf(h + 2 * i, "%2x", &v) != 1)
            return 0;
        out[i] = (uint8_t)v;
    }
    return 1;
}

static const struct test_codecs_expected *const expected = test_codecs_expected;

/* Prefixes from notes §6 (X/N filled in per set below). */
static const char *const spki_prefix[3] = {
    "30820332" "300b0609608648016503040401" "03820321" "00",
    "308204b2" "300b0609608648016503040402" "038204a1" "00",
    "30820632" "300b0609608648016503040403" "03820621" "00",
};

static uint8_t buf[MLKEM_DER_MAX_INPUT + 64];
static uint8_t tmp[MLKEM_DER_MAX_INPUT + 64];

/* The writers, into buf: the length written, 0 on failure. */
static size_t spki_w(const mlkem_params *p, const uint8_t *ek)
{
    uint8_t *der = NULL;
    size_t len = 0;

    if (!mlkem_der_spki_encode(p, ek, &der, &len) || len > sizeof(buf)) {
        OPENSSL_free(der);
        return 0;
    }
    memcpy(buf, der, len);
    OPENSSL_free(der);
    return len;
}

static size_t pkcs8_w(const mlkem_params *p, mlkem_fmt fmt,
                      const uint8_t *seed, const uint8_t *dk,
                      const uint8_t *ek)
{
    uint8_t *der = NULL;
    size_t len = 0;

    if (!mlkem_der_pkcs8_encode(p, fmt, seed, dk, ek, &der, &len)
        || len > sizeof(buf)) {
        OPENSSL_secure_clear_free(der, len);
        return 0;
    }
    memcpy(buf, der, len);
    OPENSSL_secure_clear_free(der, len);
    return len;
}

/* Expect reader result `want` for in[0..len). */
static int spki_r(const mlkem_params *p, const uint8_t *in, size_t len)
{
    const uint8_t *ek = NULL;
    int r = mlkem_der_spki_read(p, in, len, &ek);

    /* libcrypto's parse errors are not left behind. */
    TEST_CHECK(ERR_peek_error() == 0, "spki reader left an error on the queue");
    ERR_clear_error();
    return r;
}

static int pkcs8_r(const mlkem_params *p, const uint8_t *in, size_t len)
{
    mlkem_der_priv d;
    int r = mlkem_der_pkcs8_read(p, in, len, &d);

    TEST_CHECK(ERR_peek_error() == 0, "pkcs8 reader left an error on the queue");
    ERR_clear_error();
    return r;
}

static void test_set(int idx)
{
    const mlkem_params *p = mlkem_params_by_bits((unsigned)expected[idx].bits);
    uint8_t seed[64], ek[MLKEM_MAX_EK_BYTES], dk[MLKEM_MAX_DK_BYTES];
    uint8_t pfx[32];
    char hex[65];
    size_t n;

    printf("== %s\n", p->name);
    for (int i = 0; i < 64; i++)
        seed[i] = (uint8_t)i;
    if (mlkem_keygen_internal(p, ek, dk, seed, seed + 32) != MLKEM_OK) {
        TEST_CHECK(0, "keygen");
        return;
    }

    /* ---- SubjectPublicKeyInfo: exact bytes, then the reader ---- */
    n = spki_w(p, ek);
    TEST_CHECK(n == expected[idx].spki_len, "spki len %zu", n);
    sha256_hex(buf, n, hex);
    TEST_CHECK(strcmp(hex, expected[idx].spki) == 0, "spki sha256 %s", hex);
    TEST_CHECK(unhex(spki_prefix[idx], pfx, 22) && memcmp(buf, pfx, 22) == 0,
          "spki prefix");
    {
        const uint8_t *got = NULL;

        TEST_CHECK(mlkem_der_spki_read(p, buf, n, &got) == MLKEM_DER_OK
              && got == buf + 22, "spki read");
        /* Every truncation fails; once the OID is complete (22 bytes of
         * header + OID reach offset 17) it is ours and fatal. */
        for (size_t t = 0; t < n; t++) {
            int r = spki_r(p, buf, t);

            if (t >= 17)
                TEST_CHECK(r == MLKEM_R_BAD_ENCODING, "spki truncated %zu: %d", t, r);
            else
                TEST_CHECK(r == MLKEM_DER_NOT_MINE, "spki truncated %zu: %d", t, r);
        }
        /* Trailing byte. */
        memcpy(tmp, buf, n);
        tmp[n] = 0;
        TEST_CHECK(spki_r(p, tmp, n + 1) == MLKEM_R_BAD_ENCODING, "spki trailing");
        /* Other sets' decoders: not theirs. */
        for (int o = 0; o < 3; o++)
            if (o != idx)
                TEST_CHECK(spki_r(mlkem_params_by_bits((unsigned)expected[o].bits), buf, n)
                          == MLKEM_DER_NOT_MINE, "spki cross-set %d", o);
        /* An unknown OID of the ML-KEM arc (.4), and ML-DSA-44's OID
         * (2.16.840.1.101.3.4.3.17): not ours. */
        memcpy(tmp, buf, n);
        tmp[16] = 4;
        TEST_CHECK(spki_r(p, tmp, n) == MLKEM_DER_NOT_MINE, "spki oid .4");
        memcpy(tmp, buf, n);
        tmp[15] = 3;
        tmp[16] = 17;
        TEST_CHECK(spki_r(p, tmp, n) == MLKEM_DER_NOT_MINE, "spki ml-dsa oid");
        /* Unused bits in the BIT STRING. */
        memcpy(tmp, buf, n);
        tmp[21] = 1;
        TEST_CHECK(spki_r(p, tmp, n) == MLKEM_R_BAD_ENCODING, "spki unused bits");
        /* Wrong tag for the BIT STRING. */
        memcpy(tmp, buf, n);
        tmp[17] = 0x04;
        TEST_CHECK(spki_r(p, tmp, n) == MLKEM_R_BAD_ENCODING, "spki octet string");
        /* Parameters present: NULL inside the AlgorithmIdentifier. */
        {
            size_t m = 0;

            tmp[m++] = 0x30;
            tmp[m++] = 0x82;
            tmp[m++] = (uint8_t)((n - 4 + 2) >> 8);
            tmp[m++] = (uint8_t)(n - 4 + 2);
            tmp[m++] = 0x30;
            tmp[m++] = 0x0d;
            memcpy(tmp + m, buf + 6, 11); /* OID TLV */
            m += 11;
            tmp[m++] = 0x05;
            tmp[m++] = 0x00;
            memcpy(tmp + m, buf + 17, n - 17);
            m += n - 17;
            TEST_CHECK(spki_r(p, tmp, m) == MLKEM_R_BAD_ENCODING, "spki NULL params");
        }
        /* ek one byte short, with consistent DER lengths. */
        {
            size_t m = n - 1;

            memcpy(tmp, buf, m);
            tmp[2] = (uint8_t)((n - 5) >> 8);
            tmp[3] = (uint8_t)(n - 5);
            tmp[19] = (uint8_t)((p->ek_bytes) >> 8); /* 1 + ek - 1 */
            tmp[20] = (uint8_t)(p->ek_bytes);
            TEST_CHECK(spki_r(p, tmp, m) == MLKEM_R_BAD_KEY_LENGTH, "spki short ek");
        }
        /* Non-minimal length (0x82 00 xx) and indefinite length. */
        memcpy(tmp, buf, n);
        tmp[5] = 0x81; /* AlgId SEQUENCE length 0x0b in long form */
        TEST_CHECK(spki_r(p, tmp, n) != MLKEM_DER_OK, "spki long-form length");
        memcpy(tmp, buf, n);
        tmp[1] = 0x80;
        TEST_CHECK(spki_r(p, tmp, n) != MLKEM_DER_OK, "spki indefinite");
        /* Garbage. */
        for (size_t i = 0; i < n; i++)
            tmp[i] = (uint8_t)(i * 131 + 7);
        TEST_CHECK(spki_r(p, tmp, n) == MLKEM_DER_NOT_MINE, "spki garbage");
        /* Oversized input is never ours. */
        TEST_CHECK(spki_r(p, buf, MLKEM_DER_MAX_INPUT + 1) == MLKEM_DER_NOT_MINE,
              "spki oversize");
    }

    /* ---- PrivateKeyInfo in the six forms ---- */
    for (int f = 0; f < MLKEM_FMT_COUNT; f++) {
        mlkem_der_priv d;
        const char *name = mlkem_der_fmt_name((mlkem_fmt)f);
        uint8_t hdr[32];
        char ph[80];

        n = pkcs8_w(p, (mlkem_fmt)f, seed, dk, ek);
        TEST_CHECK(n == expected[idx].len[f], "%s len %zu", name, n);
        sha256_hex(buf, n, hex);
        TEST_CHECK(strcmp(hex, expected[idx].sha[f]) == 0, "%s sha256 %s", name, hex);
        /* notes §6 prefixes: version + AlgorithmIdentifier after the header */
        snprintf(ph, sizeof(ph), "020100300b060960864801650304040%d",
                 idx + 1);
        TEST_CHECK(unhex(ph, hdr, 16) && memcmp(buf + (n < 128 ? 2 : 4), hdr, 16) == 0,
              "%s prefix", name);
        TEST_CHECK(mlkem_der_pkcs8_read(p, buf, n, &d) == MLKEM_DER_OK
              && d.fmt == (mlkem_fmt)f, "%s read", name);
        if (d.seed != NULL)
            TEST_CHECK(memcmp(d.seed, seed, 64) == 0, "%s seed", name);
        if (d.dk != NULL)
            TEST_CHECK(memcmp(d.dk, dk, p->dk_bytes) == 0, "%s dk", name);
        TEST_CHECK((d.seed != NULL) == (f == MLKEM_FMT_SEED_PRIV
                                   || f == MLKEM_FMT_SEED_ONLY
                                   || f == MLKEM_FMT_BARE_SEED),
              "%s seed presence", name);
        TEST_CHECK((d.dk != NULL) == !(f == MLKEM_FMT_SEED_ONLY
                                  || f == MLKEM_FMT_BARE_SEED),
              "%s dk presence", name);
        for (size_t t = 0; t < n; t++) {
            int r = pkcs8_r(p, buf, t);

            /* the OID ends at offset 20 (4-byte header) or 18 (2-byte) */
            if (t >= (n < 128 ? 18u : 20u))
                TEST_CHECK(r == MLKEM_R_BAD_ENCODING, "%s truncated %zu: %d", name,
                      t, r);
            else
                TEST_CHECK(r == MLKEM_DER_NOT_MINE, "%s truncated %zu: %d", name, t,
                      r);
        }
        memcpy(tmp, buf, n);
        tmp[n] = 0x00;
        TEST_CHECK(pkcs8_r(p, tmp, n + 1) == MLKEM_R_BAD_ENCODING, "%s trailing",
              name);
        for (int o = 0; o < 3; o++)
            if (o != idx)
                TEST_CHECK(pkcs8_r(mlkem_params_by_bits((unsigned)expected[o].bits), buf, n)
                          == MLKEM_DER_NOT_MINE, "%s cross-set %d", name, o);
        TEST_CHECK(spki_r(p, buf, n) == MLKEM_DER_NOT_MINE, "%s as spki", name);
        /* Version 1 (OneAsymmetricKey v2) is rejected. */
        memcpy(tmp, buf, n);
        tmp[(n < 128 ? 2 : 4) + 2] = 1;
        TEST_CHECK(pkcs8_r(p, tmp, n) == MLKEM_R_BAD_ENCODING, "%s v2", name);
        /* BER that libcrypto's d2i accepts: the outer length in a longer
         * form than needed (30 81 xx for a short one, 30 83 00 xx xx for a
         * two-octet one). */
        if (n < 128) {
            tmp[0] = 0x30;
            tmp[1] = 0x81;
            memcpy(tmp + 2, buf + 1, n - 1);
            TEST_CHECK(pkcs8_r(p, tmp, n + 1) == MLKEM_R_BAD_ENCODING,
                  "%s long-form length", name);
        } else {
            tmp[0] = 0x30;
            tmp[1] = 0x83;
            tmp[2] = 0x00;
            memcpy(tmp + 3, buf + 2, n - 2);
            TEST_CHECK(pkcs8_r(p, tmp, n + 1) == MLKEM_R_BAD_ENCODING,
                  "%s long-form length", name);
        }
    }
    TEST_CHECK(spki_r(p, buf, 0) == MLKEM_DER_NOT_MINE, "empty");

    /* ---- Malformed private keys (built by hand around the inner bytes) ---- */
    {
        uint8_t inner[MLKEM_MAX_DK_BYTES + MLKEM_MAX_EK_BYTES + 16];
        size_t il;

#define WRAP_AND_CHECK(want, what)                                             \
    do {                                                                       \
        size_t m = 0, body = 3 + 13 + (il < 128 ? 2 : il < 256 ? 3 : 4) + il;  \
        tmp[m++] = 0x30;                                                       \
        if (body < 128) {                                                      \
            tmp[m++] = (uint8_t)body;                                          \
        } else {                                                               \
            tmp[m++] = 0x82;                                                   \
            tmp[m++] = (uint8_t)(body >> 8);                                   \
            tmp[m++] = (uint8_t)body;                                          \
        }                                                                      \
        unhex("020100300b060960864801650304040", tmp + m, 15);                 \
        tmp[m + 15] = (uint8_t)(idx + 1);                                      \
        m += 16;                                                               \
        tmp[m++] = 0x04;                                                       \
        if (il < 128) {                                                        \
            tmp[m++] = (uint8_t)il;                                            \
        } else if (il < 256) {                                                 \
            tmp[m++] = 0x81;                                                   \
            tmp[m++] = (uint8_t)il;                                            \
        } else {                                                               \
            tmp[m++] = 0x82;                                                   \
            tmp[m++] = (uint8_t)(il >> 8);                                     \
            tmp[m++] = (uint8_t)il;                                            \
        }                                                                      \
        memcpy(tmp + m, inner, il);                                            \
        m += il;                                                               \
        int r_ = pkcs8_r(p, tmp, m);                                           \
        TEST_CHECK(r_ == (want), "%s: got %d want %d", what, r_, (int)(want));      \
    } while (0)

        /* sanity: the macro reproduces seed-only */
        inner[0] = 0x80;
        inner[1] = 0x40;
        memcpy(inner + 2, seed, 64);
        il = 66;
        WRAP_AND_CHECK(MLKEM_DER_OK, "hand seed-only");
        /* seed 63 bytes in the [0] form */
        inner[1] = 63;
        il = 65;
        WRAP_AND_CHECK(MLKEM_R_BAD_SEED_LENGTH, "seed-only 63");
        /* expandedKey one byte short */
        inner[0] = 0x04;
        inner[1] = 0x82;
        inner[2] = (uint8_t)((p->dk_bytes - 1) >> 8);
        inner[3] = (uint8_t)(p->dk_bytes - 1);
        memcpy(inner + 4, dk, p->dk_bytes - 1);
        il = 4 + p->dk_bytes - 1;
        WRAP_AND_CHECK(MLKEM_R_BAD_KEY_LENGTH, "priv-only short");
        /* oqskeypair whose ek differs from the ek inside dk */
        inner[2] = (uint8_t)((p->dk_bytes + p->ek_bytes) >> 8);
        inner[3] = (uint8_t)(p->dk_bytes + p->ek_bytes);
        memcpy(inner + 4, dk, p->dk_bytes);
        memcpy(inner + 4 + p->dk_bytes, ek, p->ek_bytes);
        il = 4 + p->dk_bytes + p->ek_bytes;
        WRAP_AND_CHECK(MLKEM_DER_OK, "hand oqskeypair");
        inner[4 + p->dk_bytes + 5] ^= 1;
        WRAP_AND_CHECK(MLKEM_R_BAD_ENCODING, "oqskeypair ek mismatch");
        /* both: seed 63 / dk short / extra element / wrong inner tag */
        {
            size_t sl = 63, dl = p->dk_bytes, body;

            for (int c = 0; c < 4; c++) {
                size_t m = 0;

                sl = c == 0 ? 63 : 64;
                dl = c == 1 ? p->dk_bytes - 1 : p->dk_bytes;
                body = 2 + sl + 4 + dl + (c == 2 ? 2 : 0);
                inner[m++] = 0x30;
                inner[m++] = 0x82;
                inner[m++] = (uint8_t)(body >> 8);
                inner[m++] = (uint8_t)body;
                inner[m++] = c == 3 ? 0x80 : 0x04;
                inner[m++] = (uint8_t)sl;
                memcpy(inner + m, seed, sl);
                m += sl;
                inner[m++] = 0x04;
                inner[m++] = 0x82;
                inner[m++] = (uint8_t)(dl >> 8);
                inner[m++] = (uint8_t)dl;
                memcpy(inner + m, dk, dl);
                m += dl;
                if (c == 2) {
                    inner[m++] = 0x05;
                    inner[m++] = 0x00;
                }
                il = m;
                WRAP_AND_CHECK(c == 0   ? MLKEM_R_BAD_SEED_LENGTH
                               : c == 1 ? MLKEM_R_BAD_KEY_LENGTH
                                        : MLKEM_R_BAD_ENCODING,
                               c == 0   ? "both seed 63"
                               : c == 1 ? "both dk short"
                               : c == 2 ? "both extra element"
                                        : "both [0] seed");
            }
        }
        /* an unknown inner tag, and 65 bare bytes */
        memset(inner, 0x02, 80);
        il = 70;
        WRAP_AND_CHECK(MLKEM_R_BAD_ENCODING, "inner INTEGER");
        memcpy(inner, seed, 64);
        inner[0] = 0x04;
        inner[1] = 0x3f;
        il = 65;
        WRAP_AND_CHECK(MLKEM_R_BAD_KEY_LENGTH, "65 bytes");
        /* 64 bytes are a bare seed even when they look like a TLV */
        il = 64;
        WRAP_AND_CHECK(MLKEM_DER_OK, "bare seed 04 3f ...");
#undef WRAP_AND_CHECK
    }
    /* Writer refuses missing inputs. */
    TEST_CHECK(pkcs8_w(p, MLKEM_FMT_SEED_PRIV, NULL, dk, ek) == 0,
          "write without seed");
    TEST_CHECK(pkcs8_w(p, MLKEM_FMT_PRIV_ONLY, seed, NULL, ek) == 0,
          "write without dk");
    TEST_CHECK(pkcs8_w(p, MLKEM_FMT_OQS_KEYPAIR, seed, dk, NULL) == 0,
          "write oqskeypair without ek");
    TEST_CHECK(pkcs8_w(p, MLKEM_FMT_COUNT, seed, dk, ek) == 0,
          "write unknown format");
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        test_set(i);
    TEST_CHECK(mlkem_der_fmt_name(MLKEM_FMT_COUNT) == NULL, "fmt name range");
    TEST_CHECK(strcmp(mlkem_der_fmt_name(MLKEM_FMT_OQS_KEYPAIR), "oqskeypair") == 0,
          "fmt name");
    return test_finish("codecs_der");
}
