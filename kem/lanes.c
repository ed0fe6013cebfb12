/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lanes.c: the scheduler of kem/lanes.h: ML-KEM's hash streams on the lanes
 * of parallel Keccak states, or on single-state sponges when too few are
 * busy to fill a parallel call.
 *
 * References
 *   [FIPS202] NIST FIPS 202: §4 (Algorithm 8), §5.1 (pad10*1), Appendix
 *             B.2.
 *   [FIPS203] NIST FIPS 203: §4.1, Algorithms 7 and 8.
 *
 * One call of step() is one block of every busy lane: each absorbing lane
 * XORs its next input block (or its last partial block with the domain
 * byte and the final 0x80, after which it is squeezing), the state is
 * permuted once, and each squeezing lane takes one output block. Between
 * calls every lane sits at a block boundary, so a lane can be moved to a
 * single-state sponge at any time (its 200 state bytes copied out) and
 * continue there.
 *
 * Control flow depends on lengths, job kinds and (for SampleNTT) on the
 * number of accepted candidates, which is a function of the public rho
 * only; never on secret bytes. Secret stream data lives in the lanes
 * (wiped at the end of a run), in the caller's output buffers, and briefly
 * in a CBD job's block buffer (wiped when the job completes).
 */
#include "kem/lanes.h"

#include <string.h>

#include "common/ct.h"
#include "keccak/keccak_lanes.h"

/* ---- Job constructors ------------------------------------------------------ */

static void job_bytes(mlkem_job *j, unsigned rate, uint8_t ds, uint8_t *out,
                      size_t outlen, const uint8_t *in0, size_t len0,
                      const uint8_t *in1, size_t len1)
{
    j->kind = MLKEM_JOB_BYTES;
    j->poly = NULL;
    j->eta = 0;
    j->fed = NULL;
    j->resume = NULL;
    j->save = NULL;
    j->rate = rate;
    j->dsbyte = ds;
    j->out = out;
    j->outlen = outlen;
    j->in0 = in0;
    j->len0 = len0;
    j->in1 = in1;
    j->len1 = len1;
}

void mlkem_job_sha3_256(mlkem_job *j, uint8_t out[32], const uint8_t *in0,
                        size_t len0, const uint8_t *in1, size_t len1)
{
    job_bytes(j, MLKEM_SHA3_256_RATE, 0x06, out, 32, in0, len0, in1, len1);
}

void mlkem_job_sha3_512(mlkem_job *j, uint8_t out[64], const uint8_t *in0,
                        size_t len0, const uint8_t *in1, size_t len1)
{
    job_bytes(j, MLKEM_SHA3_512_RATE, 0x06, out, 64, in0, len0, in1, len1);
}

void mlkem_job_shake256(mlkem_job *j, uint8_t *out, size_t outlen,
                        const uint8_t *in0, size_t len0, const uint8_t *in1,
                        size_t len1)
{
    job_bytes(j, MLKEM_SHAKE256_RATE, 0x1f, out, outlen, in0, len0, in1, len1);
}

void mlkem_job_sha3_256_fed(mlkem_job *j, uint8_t out[32], const uint8_t *in,
                            size_t len, mlkem_keccak_ctx *state)
{
    job_bytes(j, MLKEM_SHA3_256_RATE, 0x06, out, 32, NULL, 0, NULL, 0);
    j->fed = in;
    j->fed_len = len;
    j->fed_ready = 0;
    j->fed_hashed = 0;
    j->fed_state = state;
}

void mlkem_job_sample_ntt(mlkem_job *j, int16_t r[256], const uint8_t rho[32],
                          uint8_t b0, uint8_t b1)
{
    job_bytes(j, MLKEM_SHAKE128_RATE, 0x1f, NULL, 0, rho, 32, j->suffix, 2);
    j->kind = MLKEM_JOB_SAMPLE_NTT;
    j->poly = r;
    j->suffix[0] = b0;
    j->suffix[1] = b1;
}

void mlkem_job_cbd(mlkem_job *j, int16_t r[256], const uint8_t s[32],
                   uint8_t b, unsigned eta)
{
    job_bytes(j, MLKEM_SHAKE256_RATE, 0x1f, NULL, 0, s, 32, j->suffix, 1);
    j->kind = MLKEM_JOB_CBD;
    j->poly = r;
    j->eta = eta;
    j->suffix[0] = b;
}

/* ---- Lanes of the parallel state ------------------------------------------ */

static void lane_xor(mlkem_lanes *e, unsigned l, unsigned off,
                     const uint8_t *in, size_t len)
{
    if (e->width == 8)
        e->kk->x8_xor_bytes(&e->st.x8, l, off, in, len);
    else
        e->kk->x4_xor_bytes(&e->st.x4, l, off, in, len);
}

static void lane_extract(mlkem_lanes *e, unsigned l, unsigned off,
                         uint8_t *out, size_t len)
{
    if (e->width == 8)
        e->kk->x8_extract_bytes(&e->st.x8, l, off, out, len);
    else
        e->kk->x4_extract_bytes(&e->st.x4, l, off, out, len);
}

static void state_init(mlkem_lanes *e)
{
    if (e->width == 8)
        e->kk->x8_init(&e->st.x8);
    else
        e->kk->x4_init(&e->st.x4);
    memset(e->dirty, 0, sizeof(e->dirty));
}

/*
 * Clear an idle lane before a job starts on it (finished jobs leave their
 * state, and every call scrambles idle lanes): the set's clear_lane slot
 * stores zeros over it. Clearing it by XORing its own bytes into it would
 * give the same zeros, but constant-time checking (valgrind, common/ct.h)
 * would still see them as derived from whatever secret the lane held, and
 * a public stream started there (SampleNTT, which branches on its data)
 * would be reported; plain stores derive from nothing.
 */
static void lane_clear(mlkem_lanes *e, unsigned l)
{
    if (e->width == 8)
        e->kk->x8_clear_lane(&e->st.x8, l);
    else
        e->kk->x4_clear_lane(&e->st.x4, l);
    e->dirty[l] = 0;
}

/* XOR n input bytes of j, from its current position, at byte off. */
static void lane_xor_input(mlkem_lanes *e, unsigned l, const mlkem_job *j,
                           unsigned off, size_t n)
{
    size_t a = j->absorbed;
    if (a < j->len0) {
        const size_t n0 = j->len0 - a < n ? j->len0 - a : n;
        lane_xor(e, l, off, j->in0 + a, n0);
        off += (unsigned)n0;
        a += n0;
        n -= n0;
    }
    if (n > 0)
        lane_xor(e, l, off, j->in1 + (a - j->len0), n);
}

/* ---- Jobs ------------------------------------------------------------------ */

void mlkem_lanes_init(mlkem_lanes *e, int wide_ok)
{
    e->kk = mlkem_keccak_kernels();
    e->pk = mlkem_poly_kernels();
    e->width = 4;
    memset(e->lane, 0, sizeof(e->lane));
    e->busy = 0;
    e->head = e->tail = 0;
    e->ev_head = e->ev_tail = 0;
    e->fed_idle = NULL;
    e->fed_busy = 0;
    e->wide_ok = wide_ok;
    e->wide_used = 0;
    state_init(e);
}

static void run_single(mlkem_lanes *e, mlkem_job *j, int from_lane,
                       unsigned l);

static void job_reset(mlkem_job *j)
{
    j->absorbed = 0;
    j->produced = 0;
    j->blocks = 0;
    j->squeezing = 0;
    j->complete = 0;
}

void mlkem_lanes_push(mlkem_lanes *e, mlkem_job *j)
{
    job_reset(j);
    if (j->fed != NULL) { /* queued instalment by instalment (fed_next) */
        e->fed_idle = j;
        e->fed_busy = 0;
        return;
    }
    if (e->tail == MLKEM_LANES_QUEUE) { /* never with ML-KEM's job counts */
        run_single(e, j, 0, 0);
        return;
    }
    e->queue[e->tail++] = j;
}

/* Queue a job ahead of every waiting one (a fed job's next instalment,
 * which should not wait behind short streams). */
static void push_front(mlkem_lanes *e, mlkem_job *j)
{
    job_reset(j);
    if (e->head == 0 && e->tail == MLKEM_LANES_QUEUE) {
        run_single(e, j, 0, 0); /* never with ML-KEM's job counts */
        return;
    }
    if (e->head == 0) {
        memmove(e->queue + 1, e->queue, (e->tail - e->head) * sizeof(e->queue[0]));
        e->tail++;
        e->head++;
    }
    e->queue[--e->head] = j;
}

/* j's output is complete: it is reported, in completion order, by the
 * next mlkem_lanes_wait or mlkem_lanes_run (report). */
static void job_done(mlkem_lanes *e, mlkem_job *j)
{
    if (j->kind == MLKEM_JOB_SAMPLE_NTT)
        e->pk->ntt_pack(j->poly);
    e->events[e->ev_tail++] = j;
}

/* After a new output block was written where block_dest said (shared by
 * lanes and single sponges): CBD consumes its buffer once complete,
 * SampleNTT runs the rejection step on the block. Returns 1 when the
 * job's output is complete. */
static int take_block(mlkem_lanes *e, mlkem_job *j, uint8_t *buf)
{
    switch (j->kind) {
    case MLKEM_JOB_BYTES:
        return j->produced == j->outlen;
    case MLKEM_JOB_CBD:
        if (j->produced < 64 * j->eta)
            return 0;
        e->pk->sample_poly_cbd(j->poly, buf, j->eta);
        mlkem_cleanse(buf, 64 * j->eta);
        return 1;
    default: /* MLKEM_JOB_SAMPLE_NTT: public data */
        /*@ split j->produced; */
        j->produced += e->pk->sample_ntt_rej(j->poly + j->produced,
                                             256 - j->produced, buf,
                                             MLKEM_SHAKE128_RATE);
        /*@ merge j->produced; */
        return j->produced == 256;
    }
}

/* Where the next output block of j goes, and how many bytes of it. */
static uint8_t *block_dest(mlkem_job *j, uint8_t *buf, size_t *n)
{
    switch (j->kind) {
    case MLKEM_JOB_BYTES: {
        const size_t left = j->outlen - j->produced;
        *n = left < j->rate ? left : j->rate;
        return j->out + j->produced;
    }
    case MLKEM_JOB_CBD: {
        const size_t left = 64 * j->eta - j->produced;
        *n = left < j->rate ? left : j->rate;
        return buf + j->produced;
    }
    default:
        *n = MLKEM_SHAKE128_RATE;
        return buf;
    }
}

static void count_block(mlkem_job *j, size_t n)
{
    j->blocks++;
    if (j->kind != MLKEM_JOB_SAMPLE_NTT)
        j->produced += (unsigned)n;
}

/* Finish j on a single-state sponge, starting from lane l's state if
 * from_lane (the lane is then free), else from the beginning. */
static void run_single(mlkem_lanes *e, mlkem_job *j, int from_lane, unsigned l)
{
    mlkem_keccak_ctx ctx;
    uint8_t *buf = from_lane ? e->buf[l] : e->buf[8];

    if (from_lane) {
        if (e->width == 8)
            mlkem_keccak_x8_lane_to_ctx(&e->st.x8, l, j->rate, &ctx);
        else
            mlkem_keccak_x4_lane_to_ctx(&e->st.x4, l, j->rate, &ctx);
        e->lane[l] = NULL;
        e->busy--;
        if (!j->squeezing)
            ctx.pos = 0; /* between two input blocks */
    } else if (j->resume != NULL) {
        ctx = *j->resume;
    } else {
        mlkem_keccak_init(&ctx, j->rate);
    }
    if (j->save != NULL) { /* whole blocks only (the input is whole) */
        if (j->absorbed < j->len0)
            mlkem_keccak_absorb(&ctx, j->in0 + j->absorbed,
                                j->len0 - j->absorbed);
        *j->save = ctx;
        mlkem_keccak_ctx_cleanse(&ctx);
        job_done(e, j);
        return;
    }
    if (!j->squeezing) {
        const size_t a = j->absorbed;
        const size_t a1 = a > j->len0 ? a - j->len0 : 0;
        if (a < j->len0)
            mlkem_keccak_absorb(&ctx, j->in0 + a, j->len0 - a);
        if (a1 < j->len1)
            mlkem_keccak_absorb(&ctx, j->in1 + a1, j->len1 - a1);
        mlkem_keccak_finalize(&ctx, j->dsbyte);
        j->absorbed = j->len0 + j->len1;
        j->squeezing = 1;
    }
    for (;;) {
        size_t n;
        uint8_t *dst = block_dest(j, buf, &n);
        mlkem_keccak_squeeze(&ctx, dst, n);
        count_block(j, n);
        if (take_block(e, j, buf))
            break;
    }
    mlkem_keccak_ctx_cleanse(&ctx);
    job_done(e, j);
}

/* A job taking (clear) lane l: from zero, or from the job's saved
 * state. */
static void lane_start(mlkem_lanes *e, unsigned l, mlkem_job *j)
{
    if (j->resume != NULL) {
        uint8_t t[200];
        mlkem_state_extract_bytes(j->resume->s, 0, t, sizeof(t));
        lane_xor(e, l, 0, t, sizeof(t));
        mlkem_cleanse(t, sizeof(t));
        e->dirty[l] = 1;
    }
    e->lane[l] = j;
    e->busy++;
}

/* A save job whose whole blocks are in: its state to j->save. */
static void lane_save(mlkem_lanes *e, unsigned l, mlkem_job *j)
{
    uint8_t t[200];
    lane_extract(e, l, 0, t, sizeof(t));
    memset(j->save->s, 0, sizeof(j->save->s));
    mlkem_state_xor_bytes(j->save->s, 0, t, sizeof(t));
    mlkem_cleanse(t, sizeof(t));
    j->save->pos = 0;
    j->save->rate = j->rate;
    e->lane[l] = NULL;
    e->busy--;
    job_done(e, j);
}

/* One parallel call: a block of every busy lane. */
static void step(mlkem_lanes *e)
{
    unsigned busy = 0; /* lanes with a job: the permutation's mask */
    for (unsigned l = 0; l < e->width; l++) {
        mlkem_job *j = e->lane[l];
        if (j == NULL)
            continue;
        busy |= 1u << l;
        if (j->squeezing)
            continue;
        const size_t left = j->len0 + j->len1 - j->absorbed;
        if (left >= j->rate) {
            lane_xor_input(e, l, j, 0, j->rate);
            j->absorbed += j->rate;
        } else {
            /* the last block: the rest of the input, the domain byte and
             * pad10*1's final bit (in the last lane of the block, XORed as
             * a whole lane) */
            static const uint8_t last[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
            if (j->in1 == j->suffix && j->absorbed == 0) {
                /* a SampleNTT or PRF stream: in0 (rho or the seed), then
                 * its nonce bytes and the domain byte as one lane */
                uint8_t t[8] = {0};
                for (size_t i = 0; i < j->len1; i++)
                    t[i] = j->suffix[i];
                t[j->len1] = j->dsbyte;
                lane_xor(e, l, 0, j->in0, j->len0);
                lane_xor(e, l, (unsigned)j->len0, t, sizeof(t));
            } else {
                lane_xor_input(e, l, j, 0, left);
                lane_xor(e, l, (unsigned)left, &j->dsbyte, 1);
            }
            lane_xor(e, l, j->rate - 8, last, sizeof(last));
            j->absorbed += left;
            j->squeezing = 1;
        }
    }
    if (e->width == 8)
        e->kk->x8_permute(&e->st.x8);
    else
        e->kk->x4_permute_lanes(&e->st.x4, busy);
    /* the permutation also scrambled the idle lanes */
    memset(e->dirty, 1, sizeof(e->dirty));
    /* SampleNTT lanes of an x4 state: one call of the set's fused slot,
     * which reads the blocks straight from the state */
    unsigned rej = 0;
    int16_t *polys[4];
    unsigned ctr[4];
    if (e->width == 4) {
        for (unsigned l = 0; l < 4; l++) {
            mlkem_job *j = e->lane[l];
            if (j != NULL && j->kind == MLKEM_JOB_SAMPLE_NTT && j->squeezing) {
                rej |= 1u << l;
                polys[l] = j->poly;
                ctr[l] = j->produced;
            }
        }
        if (rej != 0)
            e->pk->sample_ntt_x4(&e->st.x4, rej, polys, ctr);
    }
    for (unsigned l = 0; l < e->width; l++) {
        mlkem_job *j = e->lane[l];
        int complete;
        if (j == NULL || !j->squeezing)
            continue;
        if ((rej >> l) & 1) {
            j->blocks++;
            j->produced = ctr[l];
            complete = j->produced == 256;
        } else {
            size_t n;
            uint8_t *dst = block_dest(j, e->buf[l], &n);
            lane_extract(e, l, 0, dst, n);
            count_block(j, n);
            complete = take_block(e, j, e->buf[l]);
        }
        if (complete) {
            e->lane[l] = NULL;
            e->busy--;
            job_done(e, j);
        }
    }
}

/* Two busy lanes in different pairs of a set whose pairs are permuted
 * apart (x4_pairs): the one in pair 1 moves to the idle lane of pair 0
 * (its state and its output buffer), so the next call permutes one pair
 * instead of two. The state passes through a local copy, wiped (it may be
 * a secret stream's). */
static void pack_pairs(mlkem_lanes *e)
{
    unsigned from = 2, to = 0;
    uint8_t t[200];
    mlkem_job *j;

    if (e->lane[0] != NULL && e->lane[1] != NULL)
        return;
    if (e->lane[2] == NULL && e->lane[3] == NULL)
        return;
    if (e->lane[2] == NULL)
        from = 3;
    if (e->lane[0] != NULL)
        to = 1;
    j = e->lane[from];
    e->kk->x4_extract_bytes(&e->st.x4, from, 0, t, sizeof(t));
    if (e->dirty[to])
        lane_clear(e, to);
    e->kk->x4_xor_bytes(&e->st.x4, to, 0, t, sizeof(t));
    mlkem_cleanse(t, sizeof(t));
    if (j->kind == MLKEM_JOB_CBD && j->produced != 0) {
        memcpy(e->buf[to], e->buf[from], j->produced);
        mlkem_cleanse(e->buf[from], j->produced); /* PRF bytes */
    }
    e->dirty[to] = 1;
    e->lane[to] = j;
    e->lane[from] = NULL;
}

/* From x8 to x4 states when at most four lanes are busy: the busy lanes'
 * states are copied out, the x4 state starts from zero and takes them in
 * lanes 0, 1, ... (with their buffers). */
static void narrow(mlkem_lanes *e)
{
    uint8_t t[4][200];
    mlkem_job *jobs[4];
    unsigned m = 0;

    for (unsigned l = 0; l < 8; l++) {
        if (e->lane[l] == NULL)
            continue;
        e->kk->x8_extract_bytes(&e->st.x8, l, 0, t[m], 200);
        if (m != l) {
            memcpy(e->buf[m], e->buf[l], sizeof(e->buf[m]));
            mlkem_cleanse(e->buf[l], sizeof(e->buf[l]));
        }
        jobs[m++] = e->lane[l];
        e->lane[l] = NULL;
    }
    e->width = 4;
    state_init(e);
    for (unsigned l = 0; l < m; l++) {
        e->kk->x4_xor_bytes(&e->st.x4, l, 0, t[l], 200);
        e->lane[l] = jobs[l];
        e->dirty[l] = 1;
    }
    mlkem_cleanse(t, sizeof(t));
}

/* The fed job's next instalment, queued ahead of the waiting jobs once no
 * instalment of it is queued or running: everything left, padded and
 * squeezed, if its whole input is ready; otherwise the whole blocks that
 * are ready (none: nothing yet). */
static void fed_next(mlkem_lanes *e)
{
    mlkem_job *j = e->fed_idle;
    const size_t n = j->fed_ready - j->fed_hashed;
    j->in0 = j->fed + j->fed_hashed;
    j->resume = j->fed_hashed != 0 ? j->fed_state : NULL;
    if (j->fed_ready == j->fed_len) {
        j->len0 = n;
        j->save = NULL; /* the last instalment: nothing follows */
    } else if (n >= j->rate) {
        j->len0 = n - n % j->rate;
        j->save = j->fed_state;
        e->fed_busy = 1;
    } else {
        return;
    }
    e->fed_idle = NULL;
    push_front(e, j);
}

void mlkem_lanes_feed(mlkem_lanes *e, mlkem_job *j, size_t ready)
{
    (void)e;
    j->fed_ready = ready;
}

/* Report the oldest completion: an instalment of the fed job (but its
 * last) lets the next one be queued; any other job is complete. */
static void report(mlkem_lanes *e)
{
    mlkem_job *j = e->events[e->ev_head++];

    if (j->save != NULL) { /* only a fed job's instalments save */
        j->fed_hashed += j->len0;
        e->fed_busy = 0;
        e->fed_idle = j;
    } else {
        j->complete = 1;
    }
}

/* One round of the scheduler: a job finished on a single sponge, or a
 * parallel call (after idle lanes take queued jobs and fed instalments
 * with all their blocks in leave theirs), or a change of width. Returns 0
 * if there was nothing to do. */
static MLKEM_ALWAYS_INLINE int schedule_once(mlkem_lanes *e)
{
    const unsigned x4_min = e->kk->x4_min, x8_min = e->kk->x8_min;
    const unsigned queued = e->tail - e->head;

    if (e->busy + queued == 0)
        return 0;
    /* a batch of many streams on idle lanes: x8 states if the set prefers
     * them and the caller allows it */
    if (e->width == 4 && e->busy == 0 && e->wide_ok && x8_min != 0 &&
        queued >= x8_min) {
        e->width = 8;
        e->wide_used = 1;
        state_init(e);
    }
    /* The one decision between lanes and single sponges: the set's x4_min
     * (0: never lanes, as for the portable set, whose x4 and x8 calls are
     * four and eight single permutations in turn, so lanes would only add
     * copying; test_perms.c counts the permutations). */
    if (x4_min == 0 || e->busy + queued < x4_min) {
        /* too few for a parallel call: one job on a single state */
        unsigned l = 0;
        if (e->busy != 0)
            while (e->lane[l] == NULL)
                l++;
        if (e->busy != 0)
            run_single(e, e->lane[l], 1, l);
        else
            run_single(e, e->queue[e->head++], 0, 0);
        return 1;
    }
    /* a fed instalment (but the last) with all its blocks in leaves its
     * lane, which a queued job can take in the same call */
    if (e->fed_busy)
        for (unsigned l = 0; l < e->width; l++) {
            mlkem_job *j = e->lane[l];
            if (j != NULL && j->save != NULL && j->absorbed == j->len0)
                lane_save(e, l, j);
        }
    for (unsigned l = 0; l < e->width && e->head < e->tail; l++) {
        if (e->lane[l] != NULL)
            continue;
        if (e->dirty[l])
            lane_clear(e, l);
        lane_start(e, l, e->queue[e->head++]);
    }
    if (e->busy < x4_min)
        return 1;
    if (e->width == 8 && e->busy < x8_min && e->busy <= 4) {
        narrow(e);
        return 1;
    }
    if (e->width == 4 && e->busy == 2 && e->kk->x4_pairs)
        pack_pairs(e);
    step(e);
    return 1;
}

/* Report completions one at a time, queueing the fed job's next
 * instalment between them, and schedule when none is left to report:
 * until j is complete, or (j NULL, for mlkem_lanes_run) until nothing is
 * left. The caller's work between two waits then sees the same
 * completions, in the same order, whatever the lanes did in the same
 * parallel call. */
void mlkem_lanes_wait(mlkem_lanes *e, const mlkem_job *j)
{
    while (j == NULL || !j->complete) {
        if (e->fed_idle != NULL)
            fed_next(e);
        if (e->ev_head != e->ev_tail) {
            report(e);
        } else {
            e->ev_head = e->ev_tail = 0; /* all reported */
            if (!schedule_once(e))
                return;
        }
    }
}

void mlkem_lanes_wait_all(mlkem_lanes *e, const mlkem_job *jobs, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        mlkem_lanes_wait(e, &jobs[i]);
}

void mlkem_lanes_run(mlkem_lanes *e)
{
    mlkem_lanes_wait(e, NULL);
    /* The buffers hold SampleNTT blocks (public) or nothing: a CBD job
     * wipes its PRF bytes as it consumes them. */
    if (e->wide_used)
        mlkem_cleanse(&e->st.x8, sizeof(e->st.x8));
    else
        mlkem_cleanse(&e->st.x4, sizeof(e->st.x4));
    /* and what the permutations, extractions and samplers called above
     * spilled below this frame: final-round lanes are squeezed output */
    mlkem_stack_scrub();
    e->head = e->tail = 0;
}
