/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_comb_table.c: writes curve25519/comb_table.h, the table of x25519.c's
 * fixed-base comb, 256^i (j + 1) B for i < 32, 1 <= j + 1 <= 8, as affine
 * (y + x, y - x, 2 d x y) with the limbs fe25519.h's arithmetic produces.
 *
 *   gen_comb_table > curve25519/comb_table.h    regenerate
 *   gen_comb_table --check curve25519/comb_table.h
 *                  exit 0 if the file is what this program writes, 1 if not
 *                  (the test curve25519_comb_table)
 *
 * The table is computed from B alone ([RFC8032] §5.1: y = 4/5, x the even
 * root) and d = -121665 / 121666 ([RFC7748] §4.1): each row by 9 doublings
 * and 3 additions in extended coordinates, then all 256 points made affine
 * with one inversion (Montgomery's trick). Public data only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve25519/x25519.h"

#ifndef MLKEM_X25519_NATIVE
/* No 128-bit integers: x25519.c is not built, nor is its table. */
int main(void)
{
    fputs("gen_comb_table: no 128-bit integer type on this target\n", stderr);
    return 77;
}
#else

#include "curve25519/fe25519.h"
#include "curve25519/ge25519.h"

static fe ed_2d; /* 2 d */

/* r = p + q, both extended. */
static void ge_add(ge_p3 *r, const ge_p3 *p, const ge_p3 *q, ge_scratch *s)
{
    fe ypx, ymx, t2d;

    fe_add(ypx, q->Y, q->X);
    fe_sub(ymx, q->Y, q->X);
    fe_mul(t2d, q->T, ed_2d);
    ge_add_core(r, p, ypx, ymx, t2d, q->Z, s);
}

/* B of [RFC8032] §5.1: x's little-endian bytes. */
static const uint8_t ed_base_x[32] = {
    0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95,
    0x60, 0xc7, 0x2c, 0x69, 0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0,
    0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21};

static ge_precomp table[COMB_ROWS][COMB_COLS];

static void comb_build(void)
{
    static ge_p3 pts[COMB_ROWS * COMB_COLS];
    static fe prefix[COMB_ROWS * COMB_COLS];
    ge_p3 p, q;
    fe t, d, inv, zinv, x, y;
    ge_scratch s;
    ge_precomp *e;
    int i, j, n = COMB_ROWS * COMB_COLS;

    /* d = -121665 / 121666 and y(B) = 4 / 5: small constants, inverted. */
    fe_0(t);
    t[0] = 121666;
    fe_invert(d, t);
    fe_mul_small(d, d, 121665); /* -d */
    fe_add(d, d, d);            /* -2d */
    fe_0(t);
    fe_sub(ed_2d, t, d);        /* 2d, reduced */
    fe_frombytes(p.X, ed_base_x);
    t[0] = 5;
    fe_invert(p.Y, t);
    fe_mul_small(p.Y, p.Y, 4);
    fe_1(p.Z);
    fe_mul(p.T, p.X, p.Y);

    /* pts[8 i + j] = (j + 1) P with P = 256^i B, all extended: 2P, 4P, 6P,
     * 8P by doubling, the odd ones by adding P; then 256 P = 32 (8P). */
    for (i = 0; i < COMB_ROWS; i++) {
        ge_p3 *row = pts + i * COMB_COLS;

        row[0] = p;
        for (j = 1; j < COMB_COLS; j += 2) {
            ge_dbl(&row[j], &row[j / 2], &s);          /* (j + 1) P */
            if (j + 1 < COMB_COLS)
                ge_add(&row[j + 1], &row[j], &p, &s); /* (j + 2) P */
        }
        q = row[COMB_COLS - 1];
        for (j = 0; j < 5; j++)
            ge_dbl(&q, &q, &s);
        p = q;
    }

    /* prefix[i] = Z_0 ... Z_i; inv = 1 / prefix[n - 1]; then backwards
     * 1 / Z_i = inv prefix[i - 1], inv = inv Z_i. */
    fe_copy(prefix[0], pts[0].Z);
    for (i = 1; i < n; i++)
        fe_mul(prefix[i], prefix[i - 1], pts[i].Z);
    fe_invert(inv, prefix[n - 1]);
    for (i = n - 1; i >= 0; i--) {
        if (i > 0) {
            fe_mul(zinv, inv, prefix[i - 1]);
            fe_mul(inv, inv, pts[i].Z);
        } else {
            fe_copy(zinv, inv);
        }
        fe_mul(x, pts[i].X, zinv);
        fe_mul(y, pts[i].Y, zinv);
        e = &table[i / COMB_COLS][i % COMB_COLS];
        e->f.pad = 0;
        fe_add(e->f.ypx, y, x);
        fe_sub(e->f.ymx, y, x);
        fe_mul(e->f.t2d, x, y);
        fe_mul(e->f.t2d, e->f.t2d, ed_2d);
    }
}

static void write_header(FILE *out)
{
    fputs("/* SPDX-License-Identifier: Apache-2.0 */\n"
          "/*\n"
          " * comb_table.h: written by curve25519/gen_comb_table.c; do not edit\n"
          " * (regenerate: gen_comb_table > curve25519/comb_table.h; the test\n"
          " * curve25519_comb_table checks that this file is what it writes).\n"
          " *\n"
          " * comb_table[i][j] = 256^i (j + 1) B on edwards25519, affine, as\n"
          " * y + x, y - x, 2 d x y (five 51-bit limbs each, fe25519.h) and a\n"
          " * zero word: x25519.c's fixed-base comb. Public data.\n"
          " */\n"
          "#ifndef MLKEM_CURVE25519_COMB_TABLE_H\n"
          "#define MLKEM_CURVE25519_COMB_TABLE_H\n"
          "\n"
          "#include \"curve25519/ge25519.h\"\n"
          "\n"
          "static const ge_precomp comb_table[COMB_ROWS][COMB_COLS] = {\n",
          out);
    for (int i = 0; i < COMB_ROWS; i++) {
        fprintf(out, "    { /* 256^%d B .. 8 * 256^%d B */\n", i, i);
        for (int j = 0; j < COMB_COLS; j++) {
            const uint64_t *w = table[i][j].w;

            /* Three words a line (80 columns). */
            for (int l = 0; l < 16; l++)
                fprintf(out, "%s0x%014llx%s",
                        l == 0 ? "        { .w = { "
                        : l % 3 == 0 ? "                 " : " ",
                        (unsigned long long)w[l],
                        l == 15 ? " } },\n" : l % 3 == 2 ? ",\n" : ",");
        }
        fputs("    },\n", out);
    }
    fputs("};\n\n#endif /* MLKEM_CURVE25519_COMB_TABLE_H */\n", out);
}

/* The whole of f from its start, in a new buffer (*len bytes); NULL on
 * error. */
static char *slurp(FILE *f, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0, r;

    *len = 0;
    if (fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    do {
        if (*len == cap) {
            char *n = realloc(buf, cap = cap * 2 + 65536);

            if (n == NULL) {
                free(buf);
                return NULL;
            }
            buf = n;
        }
        r = fread(buf + *len, 1, cap - *len, f);
        *len += r;
    } while (r > 0);
    return buf;
}

int main(int argc, char **argv)
{
    char *want = NULL, *got = NULL;
    size_t want_len = 0, got_len = 0, at = 0;
    FILE *f = NULL, *tmp = NULL;
    int rc = 2;

    comb_build();
    if (argc == 1) {
        write_header(stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc != 3 || strcmp(argv[1], "--check") != 0) {
        fprintf(stderr, "usage: %s [--check comb_table.h]\n", argv[0]);
        return 2;
    }
    if ((f = fopen(argv[2], "rb")) == NULL) {
        perror(argv[2]);
        return 2;
    }
    if ((tmp = tmpfile()) == NULL)
        goto end;
    write_header(tmp);
    if ((got = slurp(tmp, &got_len)) == NULL
        || (want = slurp(f, &want_len)) == NULL)
        goto end;
    while (at < want_len && at < got_len && want[at] == got[at])
        at++;
    if (at == want_len && at == got_len) {
        printf("%s: as generated (%d x %d entries)\n", argv[2], COMB_ROWS,
               COMB_COLS);
        rc = 0;
    } else {
        fprintf(stderr, "%s differs from what gen_comb_table writes, from "
                "byte %zu on (regenerate: gen_comb_table > %s)\n", argv[2],
                at, argv[2]);
        rc = 1;
    }
end:
    if (rc == 2)
        fprintf(stderr, "gen_comb_table: cannot compare with %s\n", argv[2]);
    free(want);
    free(got);
    if (tmp != NULL)
        fclose(tmp);
    fclose(f);
    return rc;
}

#endif /* MLKEM_X25519_NATIVE */
