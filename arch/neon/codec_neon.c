/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_neon.c: the neon backends' byte encodings, compressions, centred
 * binomial sampling and the rejection loop of SampleNTT, in NEON
 * intrinsics. Contracts: kem/poly_kernels.h (T_q in the spec's order, so
 * ByteEncode_12 / ByteDecode_12 need no reordering). Each function gives
 * exactly the portable kernel's output (test/arch/test_slots.c).
 *
 * References
 *   [FIPS203] NIST FIPS 203: Algorithms 5-6 (ByteEncode_d, ByteDecode_d),
 *             7 (SampleNTT, lines 5-12), 8 (SamplePolyCBD); §4.2.1
 *             (Compress_d, Decompress_d, eq. 4.7-4.8); §7.2 (modulus check).
 *
 * Bit packing. A run of d-bit values packs value i into bits d i .. d i +
 * d - 1 of the byte string, least significant first (Algorithm 5). Eight
 * values fill exactly d bytes. Encoding merges neighbours inside a
 * register (shift and OR): pairs of 16-bit lanes into 32-bit lanes of 2d
 * bits, then pairs of those into 64-bit lanes of 4d bits (four values);
 * the bytes of each 64-bit lane are then gathered with TBL (a byte
 * permutation with constant indices). When 4d is not a multiple of
 * 8 (d = 5, 11), the second lane's value is first shifted left by 4 so that
 * it starts on a byte boundary, and the one byte they share is ORed.
 * Decoding gathers, for each value, the two (three for d = 11) bytes that
 * hold it into a 16-bit (32-bit) lane with TBL, shifts each lane right by
 * its bit offset (USHL by a constant negative vector) and masks.
 *
 * Constant time: every function except the rejection loop handles secret
 * data (s, e, the message, the re-encryption in decaps) and uses only
 * arithmetic, constant shifts and constant-index permutations. The
 * rejection loop reads public XOF output of rho and may branch and index
 * on it (FIPS 203 §3.3 is about secrets; rho is part of ek).
 */
#include <arm_neon.h>
#include <string.h>

#include "arch/aarch64.h"
#include "common/compiler.h"
#include "common/ct.h"

#if !defined(__aarch64__) || defined(__AARCH64EB__)
#error "arch/neon/ is for little-endian AArch64"
#endif

#define Q 3329

/* ---- Helpers --------------------------------------------------------------- */

/* The canonical representative of |a| < q: a + q where a < 0. */
static MLKEM_ALWAYS_INLINE uint16x8_t caddq(int16x8_t a)
{
    return vreinterpretq_u16_s16(
        vaddq_s16(a, vandq_s16(vshrq_n_s16(a, 15), vdupq_n_s16(Q))));
}

/* Store the first n bytes of v (n in {4, 8, 12, 16}). */
static MLKEM_ALWAYS_INLINE void store_n(uint8_t *out, uint8x16_t v,
                                        const unsigned n)
{
    uint32_t w;

    if (n == 16) {
        vst1q_u8(out, v);
        return;
    }
    if (n >= 8)
        vst1_u8(out, vget_low_u8(v));
    if (n == 4) {
        w = vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
        memcpy(out, &w, 4);
    } else if (n == 12) {
        w = vgetq_lane_u32(vreinterpretq_u32_u8(v), 2);
        memcpy(out + 8, &w, 4);
    }
}

/* A 16-entry list of the expression M(d, o) for o = base .. base + 15. */
#define X16(M, d, base)                                                       \
    M(d, (base) + 0), M(d, (base) + 1), M(d, (base) + 2), M(d, (base) + 3),   \
        M(d, (base) + 4), M(d, (base) + 5), M(d, (base) + 6),                 \
        M(d, (base) + 7), M(d, (base) + 8), M(d, (base) + 9),                 \
        M(d, (base) + 10), M(d, (base) + 11), M(d, (base) + 12),              \
        M(d, (base) + 13), M(d, (base) + 14), M(d, (base) + 15)
#define X48(M, d) {X16(M, d, 0), X16(M, d, 16), X16(M, d, 32)}

/* ---- ByteEncode_12 / ByteDecode_12 ----------------------------------------- */

/* Implements FIPS 203, Algorithm 5 (ByteEncode_12) of the canonical values:
 * a coefficient pair (x, y) becomes the bytes x & 0xff, (x >> 8) | (y << 4),
 * y >> 4. LD2 splits 16 coefficients into their even and odd ones, ST3
 * interleaves the three byte streams. Input |a_i| < q. */
void mlkem_byte_encode_12_neon(uint8_t out[384], const int16_t a[256])
{
    for (unsigned i = 0; i < 256; i += 32) {
        const int16x8x2_t p0 = vld2q_s16(a + i), p1 = vld2q_s16(a + i + 16);
        const uint16x8_t x0 = caddq(p0.val[0]), y0 = caddq(p0.val[1]);
        const uint16x8_t x1 = caddq(p1.val[0]), y1 = caddq(p1.val[1]);
        uint8x16x3_t b;
        b.val[0] = vmovn_high_u16(vmovn_u16(x0), x1);
        b.val[1] = vmovn_high_u16(
            vmovn_u16(vorrq_u16(vshrq_n_u16(x0, 8), vshlq_n_u16(y0, 4))),
            vorrq_u16(vshrq_n_u16(x1, 8), vshlq_n_u16(y1, 4)));
        b.val[2] = vshrn_high_n_u16(vshrn_n_u16(y0, 4), y1, 4);
        vst3q_u8(out + 48 * (i / 32), b);
    }
}

/* Implements FIPS 203, Algorithm 6 (ByteDecode_12) without line 3's mod q,
 * and the §7.2 verdict: all ones if every value is below q, else 0. LD3
 * splits 48 bytes into their three byte streams; the check ORs the
 * comparisons and reduces across lanes (UMAXV), branch-free. */
uint32_t mlkem_byte_decode_12_neon(int16_t r[256], const uint8_t in[384])
{
    uint16x8_t bad = vdupq_n_u16(0);
    const uint16x8_t q = vdupq_n_u16(Q);
    for (unsigned i = 0; i < 256; i += 32) {
        const uint8x16x3_t b = vld3q_u8(in + 48 * (i / 32));
        const uint8x16_t mid_lo = vandq_u8(b.val[1], vdupq_n_u8(0x0f));
        const uint8x16_t mid_hi = vshrq_n_u8(b.val[1], 4);
        int16x8x2_t p0, p1;
        const uint16x8_t x0 = vorrq_u16(vmovl_u8(vget_low_u8(b.val[0])),
                                        vshll_n_u8(vget_low_u8(mid_lo), 8));
        const uint16x8_t x1 = vorrq_u16(vmovl_high_u8(b.val[0]),
                                        vshll_high_n_u8(mid_lo, 8));
        const uint16x8_t y0 = vorrq_u16(vmovl_u8(vget_low_u8(mid_hi)),
                                        vshll_n_u8(vget_low_u8(b.val[2]), 4));
        const uint16x8_t y1 = vorrq_u16(vmovl_high_u8(mid_hi),
                                        vshll_high_n_u8(b.val[2], 4));
        bad = vorrq_u16(bad, vorrq_u16(vcgeq_u16(x0, q), vcgeq_u16(y0, q)));
        bad = vorrq_u16(bad, vorrq_u16(vcgeq_u16(x1, q), vcgeq_u16(y1, q)));
        p0.val[0] = vreinterpretq_s16_u16(x0);
        p0.val[1] = vreinterpretq_s16_u16(y0);
        p1.val[0] = vreinterpretq_s16_u16(x1);
        p1.val[1] = vreinterpretq_s16_u16(y1);
        vst2q_s16(r + i, p0);
        vst2q_s16(r + i + 16, p1);
    }
    /* 0 if no lane saw a value >= q; the verdict is its complement mask */
    return ~mlkem_ct_nonzero_mask_u32(vmaxvq_u16(bad));
}

/* ---- Compress_d and ByteEncode_d ------------------------------------------- */

/* Compress_d (eq. 4.7) of eight coefficients |a_i| < q, by kem/compress.c's
 * division-free formula ((x A_d + B) >> 19) mod 2^d on the canonical x, in
 * 32-bit lanes (x A_11 + B < 2^31). Same arithmetic as the portable kernel,
 * hence the same values. */
static MLKEM_ALWAYS_INLINE uint16x8_t compress8(const int16_t *a,
                                                const unsigned d)
{
    static const uint32_t a_d[12] = {0, 315, 630, 1260, 2520, 5040,
                                     0, 20159, 0, 0, 161271, 322542};
    const uint16x8_t x = caddq(vld1q_s16(a));
    const uint32x4_t b = vdupq_n_u32(262065); /* round(1664 * 2^19 / q) */
    const uint32x4_t lo = vmlaq_n_u32(b, vmovl_u16(vget_low_u16(x)), a_d[d]);
    const uint32x4_t hi = vmlaq_n_u32(b, vmovl_high_u16(x), a_d[d]);
    const uint16x8_t t = vshrn_high_n_u32(vshrn_n_u32(lo, 16), hi, 16);
    return vandq_u16(vshrq_n_u16(t, 3), vdupq_n_u16((uint16_t)((1u << d) - 1)));
}

/* Output byte o of a group of 32 values (four registers g = o / d, each
 * holding eight values as two 64-bit lanes of 4d bits): j = o mod d.
 *   ENC_EVEN (4d a multiple of 8): lane 0's bytes, then lane 1's.
 *   ENC_V / ENC_S (d odd, h = (d - 1) / 2 bytes of lane 0 are whole): bytes
 *   0 .. h of lane 0 from the register, bytes h .. d - 1 from lane 1 of the
 *   register shifted left by 4 bits (byte h is the OR of both).
 * 0xff (out of range) makes TBL return 0. */
#define ENC_EVEN(d, o)                                                        \
    ((o) >= 4 * (d)                ? 0xff                                     \
     : (o) % (d) < (d) / 2         ? 16 * ((o) / (d)) + (o) % (d)             \
                                   : 16 * ((o) / (d)) + 8 + (o) % (d) - (d) / 2)
#define ENC_V(d, o)                                                           \
    ((o) >= 4 * (d) || (o) % (d) > ((d) - 1) / 2 ? 0xff                       \
                                                 : 16 * ((o) / (d)) + (o) % (d))
#define ENC_S(d, o)                                                           \
    ((o) >= 4 * (d) || (o) % (d) < ((d) - 1) / 2                              \
         ? 0xff                                                               \
         : 16 * ((o) / (d)) + 8 + (o) % (d) - ((d) - 1) / 2)

static const uint8_t enc4[48] = X48(ENC_EVEN, 4);
static const uint8_t enc10[48] = X48(ENC_EVEN, 10);
static const uint8_t enc5_v[48] = X48(ENC_V, 5);
static const uint8_t enc5_s[48] = X48(ENC_S, 5);
static const uint8_t enc11_v[48] = X48(ENC_V, 11);
static const uint8_t enc11_s[48] = X48(ENC_S, 11);

/* Eight d-bit values (16-bit lanes) into two 64-bit lanes of 4d bits:
 * neighbours merged as v0 | v1 << d, then as w0 | w1 << 2d (the low part
 * has exactly its field width, so OR is insertion). Shift counts come as
 * vectors (USHL): d is a constant only after inlining. */
static MLKEM_ALWAYS_INLINE uint8x16_t merge4(uint16x8_t t, const unsigned d)
{
    const uint32x4_t t32 = vreinterpretq_u32_u16(t);
    const uint32x4_t m32 =
        vorrq_u32(vandq_u32(t32, vdupq_n_u32(0xffff)),
                  vshlq_u32(vshrq_n_u32(t32, 16), vdupq_n_s32((int32_t)d)));
    const uint64x2_t m64 = vreinterpretq_u64_u32(m32);
    return vreinterpretq_u8_u64(
        vorrq_u64(vandq_u64(m64, vdupq_n_u64(0xffffffffu)),
                  vshlq_u64(vshrq_n_u64(m64, 32),
                            vdupq_n_s64((int64_t)(2 * d)))));
}

/* ByteEncode_d(Compress_d(a)) for d in {4, 5, 10, 11}: 32 values (4d bytes)
 * per step. */
static MLKEM_ALWAYS_INLINE void compress_encode(uint8_t *out,
                                                const int16_t a[256],
                                                const unsigned d)
{
    const uint8_t *iv = d == 4 ? enc4 : d == 10 ? enc10 : d == 5 ? enc5_v
                                                                  : enc11_v;
    const uint8_t *is = d == 5 ? enc5_s : enc11_s;
    for (unsigned i = 0; i < 256; i += 32) {
        uint8x16x4_t v, s;
        for (unsigned g = 0; g < 4; g++)
            v.val[g] = merge4(compress8(a + i + 8 * g, d), d);
        if (d % 2)
            for (unsigned g = 0; g < 4; g++)
                s.val[g] = vreinterpretq_u8_u64(
                    vshlq_n_u64(vreinterpretq_u64_u8(v.val[g]), 4));
        uint8_t *o = out + 4 * d * (i / 32);
        for (unsigned c = 0; c < 4 * d; c += 16) {
            uint8x16_t x = vqtbl4q_u8(v, vld1q_u8(iv + c));
            if (d % 2)
                x = vorrq_u8(x, vqtbl4q_u8(s, vld1q_u8(is + c)));
            store_n(o + c, x, 4 * d - c < 16 ? 4 * d - c : 16);
        }
    }
}

/* Implements FIPS 203, Algorithm 15 line 7: m = ByteEncode_1(Compress_1(w)).
 * Sixteen 0/1 values per register shifted by their bit position (lane mod
 * 8), then three rounds of pairwise adds sum each 8 lanes into one byte
 * (the bits do not overlap). */
static void encode_message(uint8_t m[32], const int16_t a[256])
{
    const int8x16_t pos = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
    for (unsigned h = 0; h < 2; h++) {
        uint8x16_t v[8];
        for (unsigned g = 0; g < 8; g++) {
            const int16_t *p = a + 128 * h + 16 * g;
            v[g] = vshlq_u8(vmovn_high_u16(vmovn_u16(compress8(p, 1)),
                                           compress8(p + 8, 1)),
                            pos);
        }
        const uint8x16_t w0 = vpaddq_u8(vpaddq_u8(v[0], v[1]),
                                        vpaddq_u8(v[2], v[3]));
        const uint8x16_t w1 = vpaddq_u8(vpaddq_u8(v[4], v[5]),
                                        vpaddq_u8(v[6], v[7]));
        vst1q_u8(m + 16 * h, vpaddq_u8(w0, w1));
    }
}

/* Implements FIPS 203, Algorithm 14 lines 22-23 (one polynomial of c1 with
 * d = du, or c2 with d = dv) and Algorithm 15 line 7 (d = 1). Input
 * |a_i| < q; 32 d bytes out. */
void mlkem_byte_encode_compress_neon(uint8_t *out, const int16_t a[256],
                                     unsigned d)
{
    switch (d) {
    case 1: encode_message(out, a); break;
    case 4: compress_encode(out, a, 4); break;
    case 5: compress_encode(out, a, 5); break;
    case 10: compress_encode(out, a, 10); break;
    case 11: compress_encode(out, a, 11); break;
    default: mlkem_byte_encode_compress_portable(out, a, d); break;
    }
}

/* ---- ByteDecode_d and Decompress_d ----------------------------------------- */

/* TBL indices for value i (0..7) of a group of eight d-bit values starting
 * at byte 0 of a register: the bytes d i / 8 and d i / 8 + 1 (16-bit lanes,
 * d <= 10), or those and d i / 8 + 2 (32-bit lanes, d = 11, values 4 h ..
 * 4 h + 3); and the right shift d i mod 8, as USHL's negative count. A
 * group starting at byte b adds b to every index. */
#define DEC2(d, i) (d) * (i) / 8, (d) * (i) / 8 + 1
#define DEC_IDX16(d)                                                          \
    {DEC2(d, 0), DEC2(d, 1), DEC2(d, 2), DEC2(d, 3),                          \
     DEC2(d, 4), DEC2(d, 5), DEC2(d, 6), DEC2(d, 7)}
#define DEC_SH16(d)                                                           \
    {DEC_SH(d, 0), DEC_SH(d, 1), DEC_SH(d, 2), DEC_SH(d, 3),                  \
     DEC_SH(d, 4), DEC_SH(d, 5), DEC_SH(d, 6), DEC_SH(d, 7)}
#define DEC3(i) 11 * (i) / 8, 11 * (i) / 8 + 1, 11 * (i) / 8 + 2, 0xff
#define DEC_SH(d, i) -((d) * (i) % 8)

static const uint8_t dec_idx4[16] = DEC_IDX16(4);
static const uint8_t dec_idx5[16] = DEC_IDX16(5);
static const uint8_t dec_idx6[16] = DEC_IDX16(6);
static const uint8_t dec_idx10[16] = DEC_IDX16(10);
static const int16_t dec_sh4[8] = DEC_SH16(4);
static const int16_t dec_sh5[8] = DEC_SH16(5);
static const int16_t dec_sh6[8] = DEC_SH16(6);
static const int16_t dec_sh10[8] = DEC_SH16(10);
static const uint8_t dec_idx11[32] = {DEC3(0), DEC3(1), DEC3(2), DEC3(3),
                                      DEC3(4), DEC3(5), DEC3(6), DEC3(7)};
static const int32_t dec_sh11[8] = DEC_SH16(11);

/* Eight d-bit values (d in {4, 5, 6, 10}) from the d bytes at byte b of
 * register x. */
static MLKEM_ALWAYS_INLINE uint16x8_t decode8(uint8x16_t x, const unsigned b,
                                              const unsigned d)
{
    const uint8_t *idx = d == 4 ? dec_idx4 : d == 5 ? dec_idx5
                                         : d == 6 ? dec_idx6 : dec_idx10;
    const int16_t *sh = d == 4 ? dec_sh4 : d == 5 ? dec_sh5
                                       : d == 6 ? dec_sh6 : dec_sh10;
    const uint8x16_t i = vaddq_u8(vld1q_u8(idx), vdupq_n_u8((uint8_t)b));
    const uint16x8_t t =
        vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(x, i)), vld1q_s16(sh));
    return vandq_u16(t, vdupq_n_u16((uint16_t)((1u << d) - 1)));
}

/* Eight 11-bit values from the 11 bytes at byte b of register x. */
static MLKEM_ALWAYS_INLINE uint16x8_t decode8_11(uint8x16_t x,
                                                 const unsigned b)
{
    const uint8x16_t off = vdupq_n_u8((uint8_t)b);
    const uint32x4_t m = vdupq_n_u32(0x7ff);
    const uint32x4_t lo = vandq_u32(
        vshlq_u32(vreinterpretq_u32_u8(
                      vqtbl1q_u8(x, vaddq_u8(vld1q_u8(dec_idx11), off))),
                  vld1q_s32(dec_sh11)),
        m);
    const uint32x4_t hi = vandq_u32(
        vshlq_u32(vreinterpretq_u32_u8(
                      vqtbl1q_u8(x, vaddq_u8(vld1q_u8(dec_idx11 + 16), off))),
                  vld1q_s32(dec_sh11 + 4)),
        m);
    return vmovn_high_u32(vmovn_u32(lo), hi);
}

/* Decompress_d (eq. 4.8) of y < 2^d: round(q y / 2^d), rounding half up,
 * as SQRDMULH(y 2^(15 - d), q) = (2 y 2^(15-d) q + 2^15) >> 16
 * = floor((q y + 2^(d-1)) / 2^d): the portable formula, exactly. */
static MLKEM_ALWAYS_INLINE int16x8_t decompress8(uint16x8_t y,
                                                 const unsigned d)
{
    return vqrdmulhq_n_s16(vshlq_s16(vreinterpretq_s16_u16(y),
                                     vdupq_n_s16((int16_t)(15 - d))),
                           Q);
}

/* Decompress_d(ByteDecode_d(in)) for d in {4, 5, 10, 11}. The loads stay
 * inside the 32 d input bytes: a step covers whole groups and, where its
 * bytes exceed one register, loads a second register ending exactly at the
 * step's last byte. */
static MLKEM_ALWAYS_INLINE void decode_decompress(int16_t r[256],
                                                  const uint8_t *in,
                                                  const unsigned d)
{
    if (d == 4) { /* 32 values = 16 bytes */
        for (unsigned i = 0; i < 256; i += 32) {
            const uint8x16_t x = vld1q_u8(in + i / 2);
            for (unsigned g = 0; g < 4; g++)
                vst1q_s16(r + i + 8 * g, decompress8(decode8(x, 4 * g, 4), 4));
        }
    } else if (d == 5) { /* 32 values = 20 bytes: groups at 0, 5, 10 | 15 */
        for (unsigned i = 0; i < 256; i += 32) {
            const uint8_t *p = in + 5 * (i / 8);
            const uint8x16_t x0 = vld1q_u8(p), x1 = vld1q_u8(p + 4);
            vst1q_s16(r + i, decompress8(decode8(x0, 0, 5), 5));
            vst1q_s16(r + i + 8, decompress8(decode8(x0, 5, 5), 5));
            vst1q_s16(r + i + 16, decompress8(decode8(x0, 10, 5), 5));
            vst1q_s16(r + i + 24, decompress8(decode8(x1, 11, 5), 5));
        }
    } else if (d == 10) { /* 16 values = 20 bytes: groups at 0 | 10 */
        for (unsigned i = 0; i < 256; i += 16) {
            const uint8_t *p = in + 10 * (i / 8);
            const uint8x16_t x0 = vld1q_u8(p), x1 = vld1q_u8(p + 4);
            vst1q_s16(r + i, decompress8(decode8(x0, 0, 10), 10));
            vst1q_s16(r + i + 8, decompress8(decode8(x1, 6, 10), 10));
        }
    } else { /* d = 11: 16 values = 22 bytes: groups at 0 | 11 */
        for (unsigned i = 0; i < 256; i += 16) {
            const uint8_t *p = in + 11 * (i / 8);
            const uint8x16_t x0 = vld1q_u8(p), x1 = vld1q_u8(p + 6);
            vst1q_s16(r + i, decompress8(decode8_11(x0, 0), 11));
            vst1q_s16(r + i + 8, decompress8(decode8_11(x1, 5), 11));
        }
    }
}

/* Implements FIPS 203, Algorithm 14 line 20: mu = Decompress_1(
 * ByteDecode_1(m)). Each byte is copied to eight lanes, CMTST against the
 * lane's bit gives 0 or all ones, masked to 1665 = Decompress_1(1). */
static void decode_message(int16_t r[256], const uint8_t m[32])
{
    const uint8x16_t bit = {1, 2, 4, 8, 16, 32, 64, 128,
                            1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t rep = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    const int16x8_t half = vdupq_n_s16((Q + 1) / 2);
    for (unsigned h = 0; h < 2; h++) {
        const uint8x16_t x = vld1q_u8(m + 16 * h);
        for (unsigned j = 0; j < 16; j += 2) {
            const uint8x16_t b =
                vtstq_u8(vqtbl1q_u8(x, vaddq_u8(rep, vdupq_n_u8((uint8_t)j))),
                         bit);
            const int8x16_t s = vreinterpretq_s8_u8(b);
            int16_t *p = r + 128 * h + 8 * j;
            vst1q_s16(p, vandq_s16(vmovl_s8(vget_low_s8(s)), half));
            vst1q_s16(p + 8, vandq_s16(vmovl_high_s8(s), half));
        }
    }
}

/* Implements FIPS 203, Algorithm 15 lines 3-4 (one polynomial of u' with
 * d = du, or v' with d = dv) and Algorithm 14 line 20 (d = 1). Output in
 * [0, q). */
void mlkem_decompress_byte_decode_neon(int16_t r[256], const uint8_t *in,
                                       unsigned d)
{
    switch (d) {
    case 1: decode_message(r, in); break;
    case 4: decode_decompress(r, in, 4); break;
    case 5: decode_decompress(r, in, 5); break;
    case 10: decode_decompress(r, in, 10); break;
    case 11: decode_decompress(r, in, 11); break;
    default: mlkem_decompress_byte_decode_portable(r, in, d); break;
    }
}

/* ---- SamplePolyCBD ---------------------------------------------------------- */

/*
 * Implements FIPS 203, Algorithm 8 (SamplePolyCBD_eta), lines 1-6:
 * f_i = (sum of eta bits) - (sum of the next eta bits), 2 eta bits per
 * coefficient.
 * eta = 2: per byte, d = (b & 0x55) + ((b >> 1) & 0x55) holds the four
 * 2-bit sums; coefficient 2i = sum0 - sum1, 2i + 1 = sum2 - sum3; ZIP
 * interleaves the two streams, SXTL widens.
 * eta = 3: the 6-bit field of each coefficient is gathered into a 16-bit
 * lane (decode8 with d = 6), and (f & 9) + ((f >> 1) & 9) + ((f >> 2) & 9)
 * holds the sum of bits 0-2 in bits 0-1 and of bits 3-5 in bits 3-4.
 * Secret input: arithmetic only.
 */
void mlkem_sample_poly_cbd_neon(int16_t r[256], const uint8_t *buf,
                                unsigned eta)
{
    if (eta == 2) {
        const uint8x16_t m55 = vdupq_n_u8(0x55), m3 = vdupq_n_u8(3);
        for (unsigned i = 0; i < 256; i += 32) {
            const uint8x16_t x = vld1q_u8(buf + i / 2);
            const uint8x16_t d =
                vaddq_u8(vandq_u8(x, m55), vandq_u8(vshrq_n_u8(x, 1), m55));
            const int8x16_t ev = vreinterpretq_s8_u8(
                vsubq_u8(vandq_u8(d, m3), vandq_u8(vshrq_n_u8(d, 2), m3)));
            const int8x16_t od = vreinterpretq_s8_u8(
                vsubq_u8(vandq_u8(vshrq_n_u8(d, 4), m3), vshrq_n_u8(d, 6)));
            const int8x16_t z0 = vzip1q_s8(ev, od), z1 = vzip2q_s8(ev, od);
            vst1q_s16(r + i, vmovl_s8(vget_low_s8(z0)));
            vst1q_s16(r + i + 8, vmovl_high_s8(z0));
            vst1q_s16(r + i + 16, vmovl_s8(vget_low_s8(z1)));
            vst1q_s16(r + i + 24, vmovl_high_s8(z1));
        }
    } else if (eta == 3) {
        const uint16x8_t m9 = vdupq_n_u16(9), m3 = vdupq_n_u16(3);
        /* 32 coefficients = 24 bytes: groups at 0, 6 | 12, 18 (second
         * register loaded at byte 8) */
        for (unsigned i = 0; i < 256; i += 32) {
            const uint8_t *p = buf + 3 * (i / 4);
            const uint8x16_t x0 = vld1q_u8(p), x1 = vld1q_u8(p + 8);
            uint16x8_t f[4];
            f[0] = decode8(x0, 0, 6);
            f[1] = decode8(x0, 6, 6);
            f[2] = decode8(x1, 4, 6);
            f[3] = decode8(x1, 10, 6);
            for (unsigned g = 0; g < 4; g++) {
                const uint16x8_t s = vaddq_u16(
                    vaddq_u16(vandq_u16(f[g], m9),
                              vandq_u16(vshrq_n_u16(f[g], 1), m9)),
                    vandq_u16(vshrq_n_u16(f[g], 2), m9));
                vst1q_s16(r + i + 8 * g,
                          vsubq_s16(vreinterpretq_s16_u16(vandq_u16(s, m3)),
                                    vreinterpretq_s16_u16(vshrq_n_u16(s, 3))));
            }
        }
    } else {
        mlkem_sample_poly_cbd_portable(r, buf, eta);
    }
}

/* ---- SampleNTT's rejection loop -------------------------------------------- */

/* For an 8-bit mask m of accepted 16-bit lanes, the TBL indices that move
 * those lanes (bytes 2j, 2j + 1 of lane j) to the front, in order; 0xff
 * fills the rest with zeros. Row m lists, for each set bit j of m from the
 * lowest, 2j and 2j + 1 (generated; 4 KiB of public data, indexed by the
 * public acceptance mask). */
static const uint8_t rej_compact[256][16] = {
    {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xff},
    {12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xff, 0xff},
    {14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 0xff, 0xff},
    {12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0xff, 0xff},
    {10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 0xff, 0xff},
    {8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff},
    {6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff},
    {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff},
    {0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff},
    {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xff, 0xff},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
};

/* The number of set bits of each byte value (public: the acceptance mask). */
#define REJ_POP2(n) n, n + 1, n + 1, n + 2
#define REJ_POP4(n) REJ_POP2(n), REJ_POP2(n + 1), REJ_POP2(n + 1), REJ_POP2(n + 2)
#define REJ_POP6(n) REJ_POP4(n), REJ_POP4(n + 1), REJ_POP4(n + 1), REJ_POP4(n + 2)
static const uint8_t rej_popcount[256] = {REJ_POP6(0), REJ_POP6(1),
                                          REJ_POP6(1), REJ_POP6(2)};
#undef REJ_POP2
#undef REJ_POP4
#undef REJ_POP6

/* Store the accepted values (< q) among sixteen candidates (v0, then v1)
 * at r + ctr: one 16-bit mask of accepted lanes by one ADDV (v0's lanes in
 * its low byte, v1's in its high byte), then per half one TBL through
 * rej_compact, one store of eight lanes (the accepted ones first) and the
 * count from rej_popcount. The caller guarantees ctr + 16 <= len. Returns
 * the new count. */
static MLKEM_ALWAYS_INLINE unsigned rej_store16(int16_t *r, unsigned ctr,
                                                uint16x8_t v0, uint16x8_t v1)
{
    const uint16x8_t bit_lo = {1, 2, 4, 8, 16, 32, 64, 128};
    const uint16x8_t bit_hi = {256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
    const uint16x8_t q = vdupq_n_u16(Q);
    const unsigned m = vaddvq_u16(vorrq_u16(vandq_u16(vcltq_u16(v0, q), bit_lo),
                                            vandq_u16(vcltq_u16(v1, q), bit_hi)));
    const unsigned m0 = m & 0xff, m1 = m >> 8;
    vst1q_s16(r + ctr, vreinterpretq_s16_u8(vqtbl1q_u8(
                           vreinterpretq_u8_u16(v0), vld1q_u8(rej_compact[m0]))));
    ctr += rej_popcount[m0];
    vst1q_s16(r + ctr, vreinterpretq_s16_u8(vqtbl1q_u8(
                           vreinterpretq_u8_u16(v1), vld1q_u8(rej_compact[m1]))));
    return ctr + rej_popcount[m1];
}

/*
 * Implements FIPS 203, Algorithm 7 (SampleNTT), lines 5-12, on a buffer of
 * XOF output (public): every 3 bytes give two 12-bit candidates, each kept
 * if below q, until len values are written; returns how many. Writes only
 * r[0 .. len); positions between the returned count and len may hold
 * scratch values (the contract of kem/poly_kernels.h).
 * Vector path, while 16 output slots are free and 24 bytes remain: 16
 * candidates from 24 bytes (TBL puts bytes 3i, 3i + 1 into lane 2i and
 * 3i + 1, 3i + 2 into lane 2i + 1; USHL by 0 / -4 and a mask give the
 * 12-bit values), compared with q, compacted eight lanes at a time with
 * rej_compact (one TBL and one store per eight candidates; with a 16-row
 * table for four lanes it was 502 instructions per 168-byte block, 324
 * with a mask and a count by ADDV per eight, 289 with one ADDV per sixteen
 * and the counts from rej_popcount). The
 * rest is the literal loop.
 */
unsigned mlkem_sample_ntt_rej_neon(int16_t *r, unsigned len,
                                   const uint8_t *buf, size_t buflen)
{
    const uint8x16_t idx = {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11};
    const uint8x16_t idx_hi = vaddq_u8(idx, vdupq_n_u8(4));
    const int16x8_t sh = {0, -4, 0, -4, 0, -4, 0, -4};
    const uint16x8_t m12 = vdupq_n_u16(0xfff);
    unsigned ctr = 0;
    size_t pos = 0;

    while (ctr + 16 <= len && pos + 24 <= buflen) {
        const uint8x16_t x0 = vld1q_u8(buf + pos), x1 = vld1q_u8(buf + pos + 8);
        const uint16x8_t v0 = vandq_u16(
            vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(x0, idx)), sh), m12);
        const uint16x8_t v1 = vandq_u16(
            vshlq_u16(vreinterpretq_u16_u8(vqtbl1q_u8(x1, idx_hi)), sh), m12);
        ctr = rej_store16(r, ctr, v0, v1);
        pos += 24;
    }
    while (ctr < len && pos + 3 <= buflen) {
        const uint16_t d1 =
            (uint16_t)(buf[pos] | ((unsigned)(buf[pos + 1] & 0x0f) << 8));
        const uint16_t d2 =
            (uint16_t)((buf[pos + 1] >> 4) | ((unsigned)buf[pos + 2] << 4));
        pos += 3;
        if (d1 < Q)
            r[ctr++] = (int16_t)d1;
        if (d2 < Q && ctr < len)
            r[ctr++] = (int16_t)d2;
    }
    return ctr;
}
