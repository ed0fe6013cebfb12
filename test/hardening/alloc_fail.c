/* SPDX-License-Identifier: Apache-2.0 */
/*
 * alloc_fail.c: every allocation the provider performs fails in turn, for
 * every operation it serves; each run must fail cleanly (0 with an error on
 * the queue, nothing partial in the output buffers, nothing leaked) or
 * succeed with the right result.
 *
 * References
 *   [FIPS203] NIST FIPS 203 §3.3 (intermediate values are destroyed).
 *   OpenSSL 3.0 CRYPTO_set_mem_functions(3): the allocation hooks, which
 *   must be installed before the first allocation of the process.
 *
 * Method. main() installs counting hooks with CRYPTO_set_mem_functions as
 * its first statement, so every OPENSSL_malloc / realloc / free of
 * libcrypto, libssl and mlkem.so (which calls libcrypto's CRYPTO_malloc)
 * goes through them. An allocation counts as "the provider's" when mlkem.so
 * is on the call stack (backtrace(3) against mlkem.so's mapped segments,
 * found with dl_iterate_phdr): the provider's own OPENSSL_*alloc calls and
 * what libcrypto allocates on its behalf (EVP calls of the hybrids,
 * ASN.1 and OSSL_PARAM work of the codecs, error records it raises).
 *
 * For each operation (below): a warm-up run fills OpenSSL's caches, one
 * clean run counts the provider's allocations N; then the i-th of them
 * returns NULL, for every i where provider code made the call, and for
 * every i where libcrypto made it on the provider's behalf when there are
 * at most MAX_INDIRECT of those (else an even sample of MAX_INDIRECT:
 * encrypted PKCS#8 runs PBKDF2 and makes about 8,300). After each run:
 *   success   the result is checked against the clean run's (the same
 *             bytes, or a working key served by mlkem);
 *   failure   an error is on the queue; the shared-secret buffer holds
 *             only its fill pattern or zeros, never partial output (the
 *             ciphertext is public and not checked);
 *   always    the blocks provider code allocated (OPENSSL_FILE under
 *             provider/) are all freed again, once the test freed the
 *             objects it got.
 * What libcrypto allocates on the provider's behalf may legitimately stay
 * (method and property caches filled by a fetch); LeakSanitizer (the asan
 * preset) checks the whole process at exit, after OPENSSL_cleanup.
 * Blocks allocated by provider code are scanned when freed for the
 * operation's secrets (d, z, dk's s-hat, m, the shared secrets): one freed
 * without being wiped fails the test (FIPS 203 §3.3).
 *
 * Operations: for ML-KEM-512/768/1024, keygen (random and from a seed),
 * EVP_PKEY_fromdata (seed, priv, pub), encapsulation (random and with
 * ikme), decapsulation (valid and rejected ciphertext), encoding (PKCS#8
 * DER and PEM, encrypted PKCS#8 PEM, SPKI DER) and decoding (OSSL_DECODER
 * DER, PEM and encrypted PEM; d2i_AutoPrivateKey_ex, d2i_PUBKEY_ex); for
 * X25519MLKEM768, SecP256r1MLKEM768 and SecP384r1MLKEM1024, libssl's three
 * calls: client keygen, server share import + encapsulation, client
 * decapsulation.
 *
 * Usage: hardening_alloc_fail <directory holding mlkem.so> [name filter]
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/x509.h>

#include "test/hardening/hard_util.h"

/* ---- The allocation hooks --------------------------------------------------- */

typedef struct {
    size_t size;
    const char *file; /* where it was allocated (OPENSSL_FILE) */
    int line;
    unsigned magic;
    unsigned tagged; /* 1: a provider allocation counted as live */
    unsigned gen;    /* the run that allocated it */
    unsigned pad[2];
} blk_hdr;           /* 48 bytes: keeps the payload 16-byte aligned */

#define BLK_MAGIC 0x6d6c6b6du

#define MAX_RANGES 8
#define MAX_PROBES 8
#define PROBE_BYTES 16

static struct {
    int tracking;            /* classify allocations */
    long fail_at;            /* the provider allocation to fail (0: none) */
    long seen;               /* provider allocations since the last reset */
    long injected;           /* allocations failed since the last reset */
    long live;               /* live provider allocations (see tagged) */
    uintptr_t lo[MAX_RANGES], hi[MAX_RANGES];
    size_t nranges;
    const uint8_t *probe[MAX_PROBES]; /* secrets looked for in freed blocks */
    const char *probe_name[MAX_PROBES];
    size_t nprobes;
    unsigned gen;            /* current run */
    unsigned char *direct;   /* clean run: direct[i] = allocation i + 1 was
                                made by provider code (not libcrypto) */
    long direct_cap;
    const char *failed_file; /* the allocation failed on purpose */
    int failed_line;
    /* Distinct sites of freed blocks that held a probe. */
    struct {
        const char *afile, *ffile, *what;
        int aline, fline;
        long count;
    } unwiped[32];
    size_t nunwiped;
} H;

/* Live blocks, for naming what leaked. */
#define MAX_LIVE 4096
static blk_hdr *live_blocks[MAX_LIVE];

static void live_add(blk_hdr *h);
static void live_del(blk_hdr *h);

static int from_provider_source(const char *file)
{
    return file != NULL && strstr(file, "provider/") != NULL;
}

static int in_provider(void)
{
    void *fr[96];
    int n = backtrace(fr, 96);
    for (int i = 0; i < n; i++) {
        uintptr_t a = (uintptr_t)fr[i];
        for (size_t r = 0; r < H.nranges; r++)
            if (a >= H.lo[r] && a < H.hi[r])
                return 1;
    }
    return 0;
}

/* Returns 1 if this allocation must fail; sets *tag for live accounting. */
static int classify(const char *file, int line, unsigned *tag)
{
    *tag = 0;
    if (!H.tracking)
        return 0;
    *tag = (unsigned)from_provider_source(file);
    /* Past the injected failure only the live accounting matters, and it
     * needs no stack walk. */
    if (H.fail_at != 0 && H.injected != 0)
        return 0;
    if (!*tag && !in_provider())
        return 0;
    H.seen++;
    if (H.direct != NULL && H.seen <= H.direct_cap)
        H.direct[H.seen - 1] = (unsigned char)from_provider_source(file);
    if (H.fail_at != 0 && H.seen == H.fail_at) {
        H.injected++;
        H.failed_file = file;
        H.failed_line = line;
        *tag = 0;
        return 1;
    }
    return 0;
}

#define FRESH_PAINT 0x5Au

static void *hook_malloc(size_t n, const char *file, int line)
{
    unsigned tag;
    blk_hdr *h;
    if (classify(file, line, &tag) || (h = malloc(sizeof(*h) + n)) == NULL)
        return NULL;
    /* Fresh memory is painted: malloc may hand back a block some other
     * code freed unwiped (libcrypto's decoder buffers hold the input key),
     * and bytes the provider never wrote must not count as its secrets. */
    memset(h + 1, FRESH_PAINT, n);
    h->size = n;
    h->file = file;
    h->line = line;
    h->magic = BLK_MAGIC;
    h->tagged = tag;
    h->gen = H.gen;
    H.live += tag;
    if (tag)
        live_add(h);
    return h + 1;
}

static void live_add(blk_hdr *h)
{
    for (size_t i = 0; i < MAX_LIVE; i++)
        if (live_blocks[i] == NULL) {
            live_blocks[i] = h;
            return;
        }
}

static void live_del(blk_hdr *h)
{
    for (size_t i = 0; i < MAX_LIVE; i++)
        if (live_blocks[i] == h) {
            live_blocks[i] = NULL;
            return;
        }
}

/* A block provider code allocated (tagged) must not hold a probe when it
 * is freed; findings are collected by (allocation site, free site). */
static void scan_freed(const blk_hdr *h, const char *file, int line)
{
    const uint8_t *p = (const uint8_t *)(h + 1);
    if (!h->tagged || h->size < PROBE_BYTES)
        return;
    for (size_t i = 0; i < H.nprobes; i++) {
        size_t u;
        if (memmem(p, h->size, H.probe[i], PROBE_BYTES) == NULL)
            continue;
        for (u = 0; u < H.nunwiped; u++)
            if (H.unwiped[u].afile == h->file && H.unwiped[u].aline == h->line
                && H.unwiped[u].ffile == file && H.unwiped[u].fline == line)
                break;
        if (u == H.nunwiped && u < sizeof(H.unwiped) / sizeof(H.unwiped[0])) {
            H.unwiped[u].afile = h->file;
            H.unwiped[u].aline = h->line;
            H.unwiped[u].ffile = file;
            H.unwiped[u].fline = line;
            H.unwiped[u].what = H.probe_name[i];
            H.nunwiped++;
        }
        if (u < H.nunwiped)
            H.unwiped[u].count++;
    }
}

static void hook_free(void *p, const char *file, int line)
{
    blk_hdr *h;
    if (p == NULL)
        return;
    h = (blk_hdr *)p - 1;
    if (h->magic != BLK_MAGIC) {
        fprintf(stderr, "FATAL: free of a block the hooks did not allocate "
                "(%s:%d)\n", file ? file : "?", line);
        abort();
    }
    scan_freed(h, file, line);
    H.live -= h->tagged;
    if (h->tagged)
        live_del(h);
    h->magic = 0;
    free(h);
}

static void *hook_realloc(void *p, size_t n, const char *file, int line)
{
    unsigned tag;
    blk_hdr *h, *nh;
    if (p == NULL)
        return hook_malloc(n, file, line);
    if (n == 0) {
        hook_free(p, file, line);
        return NULL;
    }
    h = (blk_hdr *)p - 1;
    if (classify(file, line, &tag))
        return NULL; /* p stays valid, as realloc(3) leaves it */
    if (h->tagged)
        live_del(h);
    if ((nh = realloc(h, sizeof(*h) + n)) == NULL) {
        if (h->tagged)
            live_add(h);
        return NULL;
    }
    if (n > nh->size)
        memset((uint8_t *)(nh + 1) + nh->size, FRESH_PAINT, n - nh->size);
    nh->size = n;
    if (nh->tagged)
        live_add(nh);
    return nh + 1;
}

static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    const char *name = info->dlpi_name;
    size_t len = strlen(name);
    (void)size;
    (void)arg;
    if (len < 9 || strcmp(name + len - 9, "/mlkem.so") != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && H.nranges < MAX_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        H.lo[H.nranges] = info->dlpi_addr + ph->p_vaddr;
        H.hi[H.nranges] = H.lo[H.nranges] + ph->p_memsz;
        H.nranges++;
    }
    return 1;
}

static void set_probe(size_t i, const char *name, const uint8_t *p)
{
    H.probe[i] = p;
    H.probe_name[i] = name;
    if (H.nprobes <= i)
        H.nprobes = i + 1;
}

/* ---- The operations ----------------------------------------------------------- */

#define FILL 0x5c
#define MAX_INDIRECT 200

/* Fixture of one algorithm: keys and expected results from clean runs. */
typedef struct {
    test_env *e;
    const hard_alg *a;
    EVP_PKEY *priv, *pub;
    uint8_t seed[64], ikme[32];
    uint8_t pubenc[1700], dk[3168];
    size_t publen, dklen;
    uint8_t ct[1700], ss[80];       /* encapsulation with ikme */
    uint8_t ct_bad[1700], ss_bad[80]; /* a rejected ciphertext and K-bar */
    size_t ctlen, sslen;
    uint8_t *der_priv, *pem_priv, *epem_priv, *der_pub;
    size_t der_privlen, pem_privlen, epem_privlen, der_publen;
} fixture;

#define PASS "alloc-fail passphrase"

/* Result of one run: 1 success (checked), 0 clean failure, -1 broken. */
typedef int (*op_fn)(fixture *f);

/* After a failure: every byte of the buffer is its fill pattern or zero
 * (untouched, or wiped; the provider wipes the secret's length, the test's
 * buffer is larger). A partial secret would need every byte to be one of
 * these two values: probability 2^-224 for 32 bytes. */
static int clean_output(const char *what, const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n && (p[i] == FILL || p[i] == 0); i++)
        ;
    if (i == n)
        return 0;
    fprintf(stderr, "    %s holds partial output after a failure\n", what);
    return -1;
}

static int key_matches(fixture *f, EVP_PKEY *k)
{
    uint8_t pub[1700];
    size_t len;
    int ok;
    long saved = H.fail_at;
    H.fail_at = 0; /* the check itself must not be failed */
    ok = hard_served_by_mlkem(k) && hard_get_pub(k, pub, sizeof(pub), &len)
         && len == f->publen && memcmp(pub, f->pubenc, len) == 0;
    H.fail_at = saved;
    return ok;
}

static int op_keygen_random(fixture *f)
{
    EVP_PKEY *k = hard_keygen(f->e, f->a, NULL);
    uint8_t pub[1700];
    size_t len = 0;
    int r;
    long saved = H.fail_at;
    if (k == NULL)
        return 0;
    H.fail_at = 0;
    r = hard_served_by_mlkem(k) && hard_get_pub(k, pub, sizeof(pub), &len)
                && len == f->a->pub ? 1 : -1;
    H.fail_at = saved;
    EVP_PKEY_free(k);
    return r;
}

static int op_keygen_seed(fixture *f)
{
    EVP_PKEY *k = hard_keygen(f->e, f->a, f->seed);
    int r = k == NULL ? 0 : key_matches(f, k) ? 1 : -1;
    EVP_PKEY_free(k);
    return r;
}

static int fromdata(fixture *f, const char *name, const uint8_t *v, size_t len,
                    int selection)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(f->e->libctx, f->a->name,
                                                   HARD_PROPQ);
    EVP_PKEY *k = NULL;
    OSSL_PARAM params[2];
    int r;

    params[0] = OSSL_PARAM_construct_octet_string(name, (void *)v, len);
    params[1] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1
        || EVP_PKEY_fromdata(ctx, &k, selection, params) != 1) {
        EVP_PKEY_free(k);
        k = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    r = k == NULL ? 0 : key_matches(f, k) ? 1 : -1;
    EVP_PKEY_free(k);
    return r;
}

static int op_fromdata_seed(fixture *f)
{
    return fromdata(f, "seed", f->seed, 64, EVP_PKEY_KEYPAIR);
}

static int op_fromdata_priv(fixture *f)
{
    return fromdata(f, OSSL_PKEY_PARAM_PRIV_KEY, f->dk, f->dklen,
                    EVP_PKEY_KEYPAIR);
}

static int op_fromdata_pub(fixture *f)
{
    return fromdata(f, OSSL_PKEY_PARAM_PUB_KEY, f->pubenc, f->publen,
                    EVP_PKEY_PUBLIC_KEY);
}

static int op_encaps_ikme(fixture *f)
{
    uint8_t ct[1700], ss[80];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss);
    memset(ct, FILL, sizeof(ct));
    memset(ss, FILL, sizeof(ss));
    if (!hard_encaps(f->e, f->pub, f->ikme, ct, &ctlen, ss, &sslen))
        return clean_output("shared secret", ss, sizeof(ss));
    return ctlen == f->ctlen && sslen == f->sslen
                   && memcmp(ct, f->ct, ctlen) == 0
                   && memcmp(ss, f->ss, sslen) == 0
               ? 1
               : -1;
}

/* Random encapsulation (the pure sets) or libssl's server side (hybrids:
 * an empty key of the group, the client's share, encapsulate). Checked by
 * decapsulating with the private key. */
static int op_encaps_random(fixture *f)
{
    uint8_t ct[1700], ss[80], ss2[80];
    size_t ctlen = sizeof(ct), sslen = sizeof(ss), sslen2 = sizeof(ss2);
    EVP_PKEY *k = f->pub;
    int r;
    long saved = H.fail_at;

    memset(ct, FILL, sizeof(ct));
    memset(ss, FILL, sizeof(ss));
    if (f->a->hybrid
        && (k = hard_pub_from(f->e, f->a, f->pubenc, f->publen)) == NULL)
        return 0;
    if (!hard_encaps(f->e, k, NULL, ct, &ctlen, ss, &sslen)) {
        /* The ciphertext is public: a hybrid may leave its ML-KEM part
         * written when the classical half fails. */
        r = clean_output("shared secret", ss, sizeof(ss));
    } else {
        H.fail_at = 0;
        r = ctlen == f->a->ct && sslen == f->a->ss
                    && hard_decaps(f->e, f->priv, ct, ctlen, ss2, &sslen2)
                    && sslen2 == sslen && memcmp(ss, ss2, sslen) == 0
                ? 1
                : -1;
        H.fail_at = saved;
    }
    if (k != f->pub)
        EVP_PKEY_free(k);
    return r;
}

static int decaps(fixture *f, const uint8_t *ct, const uint8_t *exp)
{
    uint8_t ss[80];
    size_t sslen = sizeof(ss);
    memset(ss, FILL, sizeof(ss));
    if (!hard_decaps(f->e, f->priv, ct, f->ctlen, ss, &sslen))
        return clean_output("shared secret", ss, sizeof(ss));
    return sslen == f->sslen && memcmp(ss, exp, sslen) == 0 ? 1 : -1;
}

static int op_decaps(fixture *f)
{
    return decaps(f, f->ct, f->ss);
}

static int op_decaps_rejected(fixture *f)
{
    return decaps(f, f->ct_bad, f->ss_bad);
}

static int encode_op(fixture *f, int selection, const char *format,
                     const char *structure, const char *pass,
                     const uint8_t *exp, size_t explen)
{
    uint8_t *out;
    size_t len;
    int r;
    if (!hard_encode(f->priv, selection, format, structure, pass, &out, &len))
        return out == NULL ? 0 : -1;
    if (exp != NULL) {
        r = len == explen && memcmp(out, exp, len) == 0 ? 1 : -1;
    } else {
        /* Encrypted: a fresh salt and IV each time; decrypt to compare. */
        long saved = H.fail_at;
        EVP_PKEY *k;
        H.fail_at = 0;
        k = hard_decode(f->e, "PEM", out, len, PASS);
        r = k != NULL && key_matches(f, k) ? 1 : -1;
        EVP_PKEY_free(k);
        H.fail_at = saved;
    }
    OPENSSL_clear_free(out, len);
    return r;
}

static int op_encode_der(fixture *f)
{
    return encode_op(f, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", NULL,
                     f->der_priv, f->der_privlen);
}

static int op_encode_pem(fixture *f)
{
    return encode_op(f, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", NULL,
                     f->pem_priv, f->pem_privlen);
}

static int op_encode_epem(fixture *f)
{
    return encode_op(f, EVP_PKEY_KEYPAIR, "PEM", "EncryptedPrivateKeyInfo",
                     PASS, NULL, 0);
}

static int op_encode_spki(fixture *f)
{
    return encode_op(f, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo",
                     NULL, f->der_pub, f->der_publen);
}

static int decode_op(fixture *f, const char *format, const uint8_t *in,
                     size_t len, const char *pass)
{
    EVP_PKEY *k = hard_decode(f->e, format, in, len, pass);
    int r = k == NULL ? 0 : key_matches(f, k) ? 1 : -1;
    EVP_PKEY_free(k);
    return r;
}

static int op_decode_der(fixture *f)
{
    return decode_op(f, "DER", f->der_priv, f->der_privlen, NULL);
}

static int op_decode_pem(fixture *f)
{
    return decode_op(f, "PEM", f->pem_priv, f->pem_privlen, NULL);
}

static int op_decode_epem(fixture *f)
{
    return decode_op(f, "PEM", f->epem_priv, f->epem_privlen, PASS);
}

static int op_decode_spki(fixture *f)
{
    return decode_op(f, "DER", f->der_pub, f->der_publen, NULL);
}

static int op_d2i_auto(fixture *f)
{
    const unsigned char *p = f->der_priv;
    EVP_PKEY *k = d2i_AutoPrivateKey_ex(NULL, &p, (long)f->der_privlen,
                                        f->e->libctx, NULL);
    int r = k == NULL ? 0 : key_matches(f, k) ? 1 : -1;
    EVP_PKEY_free(k);
    return r;
}

static int op_d2i_pubkey(fixture *f)
{
    const unsigned char *p = f->der_pub;
    EVP_PKEY *k = d2i_PUBKEY_ex(NULL, &p, (long)f->der_publen, f->e->libctx,
                                NULL);
    int r = k == NULL ? 0 : key_matches(f, k) ? 1 : -1;
    EVP_PKEY_free(k);
    return r;
}

typedef struct {
    const char *name;
    op_fn fn;
    int pure, hybrid; /* which algorithms it applies to */
} op_desc;

static const op_desc ops[] = {
    { "keygen", op_keygen_random, 1, 1 },
    { "keygen-seed", op_keygen_seed, 1, 0 },
    { "fromdata-seed", op_fromdata_seed, 1, 0 },
    { "fromdata-priv", op_fromdata_priv, 1, 0 },
    { "fromdata-pub", op_fromdata_pub, 1, 0 },
    { "encaps-ikme", op_encaps_ikme, 1, 0 },
    { "encaps", op_encaps_random, 1, 1 },
    { "decaps", op_decaps, 1, 1 },
    { "decaps-rejected", op_decaps_rejected, 1, 0 },
    { "encode-pkcs8-der", op_encode_der, 1, 0 },
    { "encode-pkcs8-pem", op_encode_pem, 1, 0 },
    { "encode-pkcs8-encrypted-pem", op_encode_epem, 1, 0 },
    { "encode-spki-der", op_encode_spki, 1, 0 },
    { "decode-pkcs8-der", op_decode_der, 1, 0 },
    { "decode-pkcs8-pem", op_decode_pem, 1, 0 },
    { "decode-pkcs8-encrypted-pem", op_decode_epem, 1, 0 },
    { "decode-spki-der", op_decode_spki, 1, 0 },
    { "d2i_AutoPrivateKey_ex", op_d2i_auto, 1, 0 },
    { "d2i_PUBKEY_ex", op_d2i_pubkey, 1, 0 },
};

/* ---- Fixture set-up (no injection) --------------------------------------------- */

static int fixture_init(fixture *f, test_env *e, const hard_alg *a)
{
    size_t sslen;
    memset(f, 0, sizeof(*f));
    f->e = e;
    f->a = a;
    /* Fixed, but no ASCII runs: a probe must not match a name string. */
    for (int i = 0; i < 64; i++)
        f->seed[i] = (uint8_t)(0x80 | (i * 37 + 11));
    for (int i = 0; i < 32; i++)
        f->ikme[i] = (uint8_t)(0x80 | (i * 53 + 7));
    f->priv = hard_keygen(e, a, a->hybrid ? NULL : f->seed);
    if (!TEST_CHECK(f->priv != NULL
                        && hard_get_pub(f->priv, f->pubenc, sizeof(f->pubenc),
                                        &f->publen),
                    "%s: fixture key", a->name))
        return 0;
    f->pub = hard_pub_from(e, a, f->pubenc, f->publen);
    if (!TEST_CHECK(f->pub != NULL, "%s: fixture public key", a->name))
        return 0;
    f->ctlen = sizeof(f->ct);
    f->sslen = sizeof(f->ss);
    if (a->hybrid) {
        /* A hybrid KEM takes no ikme: the fixture's ciphertext is random. */
        if (!TEST_CHECK(hard_encaps(e, f->pub, NULL, f->ct, &f->ctlen, f->ss,
                                    &f->sslen),
                        "%s: fixture encaps", a->name))
            return 0;
    } else if (!TEST_CHECK(hard_encaps(e, f->pub, f->ikme, f->ct, &f->ctlen,
                                       f->ss, &f->sslen),
                           "%s: fixture encaps", a->name)) {
        return 0;
    }
    sslen = sizeof(f->ss_bad);
    memcpy(f->ct_bad, f->ct, f->ctlen);
    f->ct_bad[f->ctlen - 1] ^= 1;
    if (!a->hybrid
        && !TEST_CHECK(hard_decaps(e, f->priv, f->ct_bad, f->ctlen, f->ss_bad,
                                   &sslen),
                       "%s: fixture rejected decaps", a->name))
        return 0;
    if (a->hybrid)
        return 1;
    if (!TEST_CHECK(EVP_PKEY_get_octet_string_param(f->priv,
                                                    OSSL_PKEY_PARAM_PRIV_KEY, f->dk,
                                                    sizeof(f->dk), &f->dklen),
                    "%s: dk", a->name))
        return 0;
    return TEST_CHECK(hard_encode(f->priv, EVP_PKEY_KEYPAIR, "DER",
                                  "PrivateKeyInfo", NULL, &f->der_priv,
                                  &f->der_privlen)
                          && hard_encode(f->priv, EVP_PKEY_KEYPAIR, "PEM",
                                         "PrivateKeyInfo", NULL, &f->pem_priv,
                                         &f->pem_privlen)
                          && hard_encode(f->priv, EVP_PKEY_KEYPAIR, "PEM",
                                         "EncryptedPrivateKeyInfo", PASS,
                                         &f->epem_priv, &f->epem_privlen)
                          && hard_encode(f->priv, EVP_PKEY_PUBLIC_KEY, "DER",
                                         "SubjectPublicKeyInfo", NULL, &f->der_pub,
                                         &f->der_publen),
                      "%s: fixture encodings", a->name);
}

static void fixture_free(fixture *f)
{
    EVP_PKEY_free(f->priv);
    EVP_PKEY_free(f->pub);
    OPENSSL_clear_free(f->der_priv, f->der_privlen);
    OPENSSL_clear_free(f->pem_priv, f->pem_privlen);
    OPENSSL_free(f->epem_priv);
    OPENSSL_free(f->der_pub);
}

/* ---- The driver ------------------------------------------------------------------ */

static long total_runs, total_injected;

static const char *site_file(void)
{
    const char *f = H.failed_file;
    const char *s = f != NULL ? strstr(f, "provider/") : NULL;
    return s != NULL ? s : f != NULL ? f : "?";
}

static void print_leaked(void)
{
    for (size_t i = 0; i < MAX_LIVE; i++) {
        const blk_hdr *h = live_blocks[i];
        if (h != NULL && h->gen == H.gen)
            fprintf(stderr, "    leaked: %zu bytes allocated at %s:%d\n",
                    h->size, h->file ? h->file : "?", h->line);
    }
}

/* One operation: the clean count, then each allocation failed in turn. */
static void run_op(fixture *f, const op_desc *op)
{
    long n, fails = 0, successes = 0;
    int r;

    ERR_clear_error();
    H.tracking = 1;
    H.fail_at = 0;
    H.seen = 0;
    r = op->fn(f); /* warm-up: caches (fetches, DRBGs) fill here */
    H.seen = 0;
    long live0 = H.live;
    H.direct_cap = 1L << 16;
    H.direct = calloc((size_t)H.direct_cap, 1);
    r = op->fn(f);
    n = H.seen;
    H.tracking = 0;
    /* Every allocation of provider code fails in turn; of libcrypto's on
     * the provider's behalf, every one when they are few, else an even
     * sample of about MAX_INDIRECT (encrypted PKCS#8 runs PBKDF2 and makes
     * thousands). */
    long indirect = 0, stride = 1;
    for (long i = 0; i < n && i < H.direct_cap; i++)
        indirect += H.direct != NULL && !H.direct[i];
    if (indirect > MAX_INDIRECT)
        stride = (indirect + MAX_INDIRECT - 1) / MAX_INDIRECT;
    if (!TEST_CHECK(r == 1, "%s %s: clean run failed", f->a->name, op->name)) {
        free(H.direct);
        H.direct = NULL;
        return;
    }
    TEST_CHECK(H.live == live0, "%s %s: clean run leaves %ld provider "
               "allocations", f->a->name, op->name, H.live - live0);

    long k_indirect = 0, runs = 0;
    for (long i = 1; i <= n; i++) {
        long before = H.live;
        if (H.direct != NULL && i <= H.direct_cap && !H.direct[i - 1]
            && k_indirect++ % stride != 0)
            continue;
        runs++;
        ERR_clear_error();
        H.tracking = 1;
        H.fail_at = i;
        H.seen = 0;
        H.injected = 0;
        H.gen++;
        H.failed_file = NULL;
        r = op->fn(f);
        H.tracking = 0;
        H.fail_at = 0;
        total_runs++;
        total_injected += H.injected;
        if (r == 0) {
            fails++;
            TEST_CHECK(ERR_peek_error() != 0, "%s %s: allocation %ld of %ld "
                       "(%s:%d) failed, the operation failed without an error",
                       f->a->name, op->name, i, n, site_file(), H.failed_line);
        } else {
            successes++;
        }
        TEST_CHECK(r >= 0, "%s %s: allocation %ld of %ld (%s:%d) failed: wrong "
                   "result or partial output", f->a->name, op->name, i, n,
                   site_file(), H.failed_line);
        if (!TEST_CHECK(H.live == before, "%s %s: allocation %ld of %ld (%s:%d) "
                        "failed: %ld provider allocation(s) leaked", f->a->name,
                        op->name, i, n, site_file(), H.failed_line,
                        H.live - before))
            print_leaked();
        ERR_clear_error();
    }
    free(H.direct);
    H.direct = NULL;
    printf("  %-20s %-28s %4ld provider allocations (%ld by provider code), "
           "%ld failed in turn: %ld runs failed cleanly, %ld succeeded\n",
           f->a->name, op->name, n, n - indirect, runs, fails, successes);
}

int main(int argc, char **argv)
{
    /* First: no allocation may happen before the hooks are in place. */
    int hooked = CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free);
    const char *filter = argc > 2 ? argv[2] : NULL;
    const char *moddir = hard_moddir(argc, argv);
    void *warm[4];
    test_env e;

    if (!TEST_CHECK(hooked, "CRYPTO_set_mem_functions refused: something "
                    "allocated before main()"))
        return test_finish("alloc_fail");
    backtrace(warm, 4); /* loads the unwinder before any hook needs it */
    if (!test_env_open(&e, moddir, NULL))
        return 1;
    dl_iterate_phdr(find_module, NULL);
    if (!TEST_CHECK(H.nranges > 0, "mlkem.so is not mapped"))
        return test_finish("alloc_fail");

    for (size_t ai = 0; ai < HARD_NALGS; ai++) {
        const hard_alg *a = &hard_algs[ai];
        fixture f;
        if (!fixture_init(&f, &e, a)) {
            fixture_free(&f);
            continue;
        }
        /* Secrets that no freed provider block may hold. */
        H.nprobes = 0;
        set_probe(0, "the shared secret", f.ss);
        if (!a->hybrid) {
            set_probe(1, "the rejection secret K-bar", f.ss_bad);
            set_probe(2, "d", f.seed);
            set_probe(3, "z", f.seed + 32);
            set_probe(4, "dk's s-hat", f.dk);
            set_probe(5, "dk's s-hat (second polynomial)", f.dk + 384);
            set_probe(6, "m (ikme)", f.ikme);
        }
        for (size_t oi = 0; oi < sizeof(ops) / sizeof(ops[0]); oi++) {
            const op_desc *op = &ops[oi];
            if (!(a->hybrid ? op->hybrid : op->pure))
                continue;
            if (filter != NULL && strstr(op->name, filter) == NULL
                && strstr(a->name, filter) == NULL)
                continue;
            run_op(&f, op);
        }
        H.nprobes = 0;
        fixture_free(&f);
    }
    for (size_t u = 0; u < H.nunwiped; u++) {
        const char *af = H.unwiped[u].afile, *ff = H.unwiped[u].ffile;
        TEST_CHECK(0, "%ld block(s) holding %s freed unwiped: allocated at %s:%d, "
                   "freed at %s:%d", H.unwiped[u].count, H.unwiped[u].what,
                   af ? af : "?", H.unwiped[u].aline, ff ? ff : "?",
                   H.unwiped[u].fline);
    }
    printf("alloc_fail: %ld runs, %ld allocations failed on purpose\n",
           total_runs, total_injected);
    test_env_close(&e);
    return test_finish("alloc_fail");
}
