/*
 * The verified core of dpsel: everything between the random bits and the
 * released index.  Pure integer C: no I/O, no allocation, no MPFR, no
 * floating point.  Each function's contract is stated in its comment here
 * (and, for the proofs, in ACSL beside its definition).
 */
#ifndef DPSEL_CORE_H
#define DPSEL_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* Largest n the samplers take: keeps every index and count far from
 * overflow (2^62 candidates of 8 bytes could not be in memory anyway). */
#define DPSEL_MAX_CANDIDATES ((size_t)1 << 62)

/* Bound on the rounds of every rejection loop: a round succeeds with
 * probability >= 1/2 (uniform) or >= 1/n per trial over n trials (EM), so
 * running out has probability below 2^-128 for a sound random source. */
#define DPSEL_REJECTION_ROUNDS 128u

/* One uniform random bit from the source (implemented in src/rng.c, outside
 * the core: its contract is an assumption listed in spec/trusted-base.md).
 * Returns DPSEL_OK or DPSEL_ERANDOM. */
int dpsel_rng_bit(dpsel_rng *rng, unsigned *bit);

/* A dyadic rational t in (0, 1) given by its binary digits:
 * t = 2^-lead * 0.d_0 d_1 ... d_{ndigits-1}, where digit d_i is bit
 * (63 - i % 64) of words[i / 64].  The stored digits may end in zeros. */
typedef struct {
    const uint64_t *words;
    uint64_t ndigits;
    uint64_t lead;
} dpsel_dyadic;

/* Index of a largest score (the first one).  Requires n >= 1. */
size_t dpsel_core_argmax(const int64_t *scores, size_t n);

/* min(best - score, cap), computed without overflow for all int64 values.
 * Requires score <= best. */
uint64_t dpsel_core_clamped_gap(int64_t best, int64_t score, uint64_t cap);

/* Uniform integer in [0, k), 1 <= k <= 2^63, from single random bits by the
 * Fast Dice Roller (Lumbroso 2013): no modulo bias, about log2(k) + 2 bits.
 * DPSEL_OK, DPSEL_ERANDOM, or DPSEL_EUNLIKELY after DPSEL_REJECTION_ROUNDS
 * rejections. */
int dpsel_core_uniform(dpsel_rng *rng, uint64_t k, uint64_t *out);

/* A coin with P(heads) = t exactly: compares fresh random bits with the
 * digits of t from the top; the first difference decides (2 bits expected).
 * *heads is 1 or 0.  DPSEL_OK or DPSEL_ERANDOM. */
int dpsel_core_coin_dyadic(dpsel_rng *rng, const dpsel_dyadic *t, int *heads);

/* A coin with P(heads) = beta^g exactly, 0 <= g < 2^npowers, where
 * powers[i] = beta^(2^i): the AND of the coins for the set bits of g, from
 * the highest (least likely) down, stopping at the first tails. */
int dpsel_core_coin_power(dpsel_rng *rng, const dpsel_dyadic *powers,
                          unsigned npowers, uint64_t g, int *heads);

/* The decay table a sampler needs: powers[i] = beta^(2^i) for i < npowers,
 * and gaps are clamped at cap < 2^npowers. */
typedef struct {
    const dpsel_dyadic *powers;
    unsigned npowers;
    uint64_t cap;
} dpsel_decay;

/* Permute-and-flip: visits the candidates in a uniformly random order (a
 * Fisher-Yates shuffle drawn lazily in scratch[0..n-1]) and releases the first
 * whose coin beta^g' is heads.  The best candidate's coin is certain, so at
 * most n coins are flipped.  Requires 1 <= n <= DPSEL_MAX_CANDIDATES. */
int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index);

/* One trial of the exponential mechanism: draws a candidate uniformly and
 * keeps it (*kept = 1) with probability beta^g'_candidate, where best is the
 * largest score.  Requires 1 <= n <= DPSEL_MAX_CANDIDATES. */
int dpsel_core_em_trial(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, int64_t best, size_t *candidate, int *kept);

/* Exponential mechanism by rejection: draws a candidate uniformly and keeps
 * it with probability beta^g'; a kept candidate has exactly the EM
 * distribution.  Each trial keeps with probability >= 1/n; after
 * DPSEL_REJECTION_ROUNDS * n trials, DPSEL_EUNLIKELY.
 * Requires 1 <= n <= DPSEL_MAX_CANDIDATES. */
int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index);

/* Significant bits of beta^(2^i) for a base with xbits = bitlen(x):
 * 2^i * xbits.  Requires xbits <= 64 and 2^i <= DPSEL_GAP_CAP_MAX, so the
 * result is at most 2^26. */
uint64_t dpsel_core_power_precision(unsigned xbits, unsigned i);

/* Number of significant bits of v (0 for v == 0). */
unsigned dpsel_core_bitlen(uint64_t v);

/* 1 if s is a decimal number for epsilon: [0-9]+ ('.' [0-9]*)? or
 * '.' [0-9]+, then optionally [eE] [+-]? [0-9]{1,9}; nothing else, no more
 * than max_len characters before the NUL.  0 otherwise. */
int dpsel_core_decimal_syntax(const char *s, size_t max_len);

/* 1 if (x, y) is a valid base x / 2^y: 1 <= y <= 64 and 0 < x < 2^y. */
int dpsel_core_base_valid(uint64_t x, unsigned y);

/* 1 if every field of params is in its documented range. */
int dpsel_core_params_valid(const dpsel_params *params);

#endif /* DPSEL_CORE_H */
