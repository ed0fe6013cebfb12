/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lanes.h: the SHA-3 / SHAKE streams of one ML-KEM operation, scheduled onto
 * the lanes of the parallel Keccak states (internal to kem/).
 *
 * References
 *   [FIPS202] NIST FIPS 202: §4 (Algorithm 8, SPONGE), §5.1 (pad10*1), §6.1
 *             (SHA3-256, SHA3-512), §6.2 (SHAKE128, SHAKE256), Appendix B.2
 *             (domain and padding bytes).
 *   [FIPS203] NIST FIPS 203: §4.1 (H, G, J, PRF, XOF), Algorithm 7
 *             (SampleNTT), Algorithm 8 (SamplePolyCBD).
 *
 * An ML-KEM operation hashes several independent inputs: the k^2 SampleNTT
 * streams of the matrix, the PRF streams of the noise, H(ek) (9 blocks at
 * k = 3), G, J(z || c). One x4 (or x8) permutation call costs little more
 * than a single-state one on a vector CPU, so the streams are run side by
 * side: every call advances each busy lane by one block (absorb one input
 * block, or squeeze one output block), a lane that finishes takes the next
 * waiting job, and a job's completion can release jobs that need its output
 * (G's r -> the PRF streams). A long serial chain such as H(ek) then costs
 * its own blocks only, with the short streams in the other lanes for free.
 *
 * Which kernels run is the installed Keccak set's choice
 * (keccak/keccak_kernels.h), and its x4_min alone says whether lanes are
 * used at all: with x4_min 0 (the portable set, whose x4 call is four
 * single permutations in turn) every job runs on a single-state sponge, one
 * after the other; otherwise lanes are used while at least x4_min of them
 * are busy, and below that the jobs finish one by one on single-state
 * sponges. A batch of streams that starts on idle lanes may take x8 states
 * (when the caller allows it and the set's x8_min says so), moving back to
 * x4 when fewer lanes stay busy.
 *
 * The caller drives the schedule and reads top to bottom: it pushes the
 * streams it has inputs for, waits for the ones whose output it needs next
 * (mlkem_lanes_wait), computes, pushes what that output releases (G's r ->
 * the PRF streams) and finally runs the schedule to its end
 * (mlkem_lanes_run). While it waits, the other lanes keep going. Waiting
 * returns at the completion that satisfies it; completions in the same
 * parallel call that come after it are reported to later waits, so the
 * order of the caller's work is the same whatever the lane packing.
 *
 * Jobs:
 *   MLKEM_JOB_BYTES       outlen bytes of output to out (H, G, J);
 *   MLKEM_JOB_SAMPLE_NTT  SHAKE128 output through Algorithm 7's rejection
 *                         loop into a polynomial, block by block until 256
 *                         values, then ntt_pack; on x4 states the blocks are
 *                         read straight from the state (kem/poly_kernels.h
 *                         sample_ntt_x4);
 *   MLKEM_JOB_CBD         64 eta bytes of PRF output through
 *                         SamplePolyCBD_eta into a polynomial.
 * A byte job can also be fed: its input arrives in instalments (H(ek) in
 * keygen, while the rows of t_hat are computed). The caller says with
 * mlkem_lanes_feed how much of the input is ready; the schedule absorbs the
 * whole blocks that are ready in a lane, ahead of the waiting jobs, saves
 * the state between instalments, and pads and outputs once all of it is
 * ready. At most one fed job per schedule.
 * Input is in0 || in1 (either may be empty); lengths are public, the data
 * may be secret: nothing branches on or indexes by it except the rejection
 * loop, which only ever sees XOF output of the public rho. Every buffer
 * holding stream data is wiped at the end of the run (mlkem_lanes_run).
 */
#ifndef MLKEM_KEM_LANES_H
#define MLKEM_KEM_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "keccak/keccak.h"
#include "keccak/keccak_kernels.h"
#include "kem/poly_kernels.h"

typedef enum {
    MLKEM_JOB_BYTES,
    MLKEM_JOB_SAMPLE_NTT,
    MLKEM_JOB_CBD
} mlkem_job_kind;

typedef struct mlkem_lanes mlkem_lanes;
typedef struct mlkem_job mlkem_job;

struct mlkem_job {
    /* Set by the mlkem_job_* constructors. */
    mlkem_job_kind kind;
    unsigned rate;        /* bytes per block */
    uint8_t dsbyte;       /* 0x06 SHA-3, 0x1f SHAKE */
    const uint8_t *in0, *in1;
    size_t len0, len1;
    uint8_t *out;         /* MLKEM_JOB_BYTES */
    size_t outlen;
    int16_t *poly;        /* MLKEM_JOB_SAMPLE_NTT, MLKEM_JOB_CBD */
    unsigned eta;         /* MLKEM_JOB_CBD */
    uint8_t suffix[2];    /* small inputs kept in the job (in1 points here) */
    /* A fed job (mlkem_job_sha3_256_fed): its whole input, how much of it
     * is ready and how much is absorbed into *fed_state. Each instalment
     * runs as the byte job in0 / len0, started from fed_state (`resume`)
     * and, but for the last, saved back to it (`save`). */
    const uint8_t *fed;
    size_t fed_len, fed_ready, fed_hashed;
    mlkem_keccak_ctx *fed_state;
    const mlkem_keccak_ctx *resume; /* start from this state (block boundary) */
    mlkem_keccak_ctx *save; /* absorb whole blocks only, then save here */
    /* Progress, kept by the scheduler. */
    size_t absorbed;      /* input bytes absorbed */
    unsigned produced;    /* output bytes, or coefficients accepted */
    unsigned blocks;      /* output blocks squeezed */
    unsigned squeezing;   /* 1 once the padded block is in */
    unsigned complete;    /* 1 once reported complete (mlkem_lanes_wait) */
};

#define MLKEM_LANES_QUEUE 40

/* Completions not yet reported to the caller: at most one per lane of
 * one parallel call and one per lane saved before it (reported before the
 * scheduler runs again), or one per job pushed onto a full queue. */
#define MLKEM_LANES_EVENTS (MLKEM_LANES_QUEUE + 16)

struct mlkem_lanes {
    const struct mlkem_keccak_kernels *kk;
    const struct mlkem_poly_kernels *pk;
    unsigned width;       /* 4 or 8 */
    union {
        mlkem_keccak_x4 x4;
        mlkem_keccak_x8 x8;
    } st;
    mlkem_job *lane[8];   /* the job on each lane, or NULL */
    unsigned busy;        /* lanes with a job */
    unsigned char dirty[8]; /* the lane's state is not all zero */
    mlkem_job *queue[MLKEM_LANES_QUEUE];
    unsigned head, tail;
    mlkem_job *events[MLKEM_LANES_EVENTS]; /* completions, in order */
    unsigned ev_head, ev_tail;
    mlkem_job *fed_idle;  /* the fed job while none of it is queued or
                             running, until its last instalment is */
    int fed_busy;         /* an instalment that saves is queued or running */
    int wide_ok, wide_used;
    /* output blocks per lane, and [8] for a job on a single sponge */
    uint8_t buf[9][2 * MLKEM_SHAKE256_RATE];
};

/* An empty schedule on the installed kernel sets. wide_ok: x8 states may
 * be used for a batch of at least x8_min streams that starts while every
 * lane is idle (the caller knows the batch is many short streams, not a
 * chain that would drag idle x8 lanes along). */
void mlkem_lanes_init(mlkem_lanes *e, int wide_ok);
/* Queue a job (runs in queue order as lanes free up). At most
 * MLKEM_LANES_QUEUE jobs per run. A fed job is only registered: its
 * instalments are queued as mlkem_lanes_feed makes input ready. */
void mlkem_lanes_push(mlkem_lanes *e, mlkem_job *j);
/* Bytes [0, ready) of the fed job j's input are now valid (ready only
 * grows). Its next instalment is queued when the schedule next runs. */
void mlkem_lanes_feed(mlkem_lanes *e, mlkem_job *j, size_t ready);
/* Run the schedule until j (pushed earlier) is complete; other jobs
 * progress meanwhile and may complete too. (j NULL: until every queued
 * job is complete, without the wipe of mlkem_lanes_run.) */
void mlkem_lanes_wait(mlkem_lanes *e, const mlkem_job *j);
/* The same for each of jobs[0 .. n): returns at the completion of the
 * last of them. */
void mlkem_lanes_wait_all(mlkem_lanes *e, const mlkem_job *jobs, unsigned n);
/* Run until every queued job is complete; wipes the states and buffers.
 * A fed job must have been fed its whole input by then. */
void mlkem_lanes_run(mlkem_lanes *e);

/* Job constructors. */
/* SHA3-256(in0 || in1) -> out[32] (H). */
void mlkem_job_sha3_256(mlkem_job *j, uint8_t out[32], const uint8_t *in0,
                        size_t len0, const uint8_t *in1, size_t len1);
/* SHA3-256(in[0 .. len)) -> out[32] with the input fed in instalments
 * (mlkem_lanes_feed); *state holds the sponge between them. */
void mlkem_job_sha3_256_fed(mlkem_job *j, uint8_t out[32], const uint8_t *in,
                            size_t len, mlkem_keccak_ctx *state);
/* SHA3-512(in0 || in1) -> out[64] (G). */
void mlkem_job_sha3_512(mlkem_job *j, uint8_t out[64], const uint8_t *in0,
                        size_t len0, const uint8_t *in1, size_t len1);
/* SHAKE256(in0 || in1, 8 outlen) -> out (J). */
void mlkem_job_shake256(mlkem_job *j, uint8_t *out, size_t outlen,
                        const uint8_t *in0, size_t len0, const uint8_t *in1,
                        size_t len1);
/* SampleNTT(rho || b0 || b1) -> r (Algorithm 7), in the set's order. */
void mlkem_job_sample_ntt(mlkem_job *j, int16_t r[256], const uint8_t rho[32],
                          uint8_t b0, uint8_t b1);
/* SamplePolyCBD_eta(PRF_eta(s, b)) -> r (Algorithm 8, §4.1). */
void mlkem_job_cbd(mlkem_job *j, int16_t r[256], const uint8_t s[32],
                   uint8_t b, unsigned eta);

#endif /* MLKEM_KEM_LANES_H */
