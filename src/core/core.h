/* SPDX-License-Identifier: ISC */
/*
 * The verified core of dpsel: everything between the random bits and the
 * released index.  Pure integer C: no I/O, no allocation, no MPFR, no
 * floating point.  This header holds what the modules share: the types, the
 * bounds, and the logic of the contracts (spec/logic.h) and the assumed
 * contract of the random source (spec/trusted.h).  Each module declares its
 * functions, with their ACSL contracts, in its own header next to its .c
 * (coin.h for coin.c, ...); make proofs checks the definitions against
 * them with Frama-C WP.
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

/* A dyadic rational t in (0, 1) given by its binary digits:
 * t = 2^-lead * 0.d_0 d_1 ... d_{ndigits-1}, where digit d_i is bit
 * (63 - i % 64) of words[i / 64].  The stored digits may end in zeros. */
typedef struct {
    const uint64_t *words;
    uint64_t ndigits;
    uint64_t lead;
} dpsel_dyadic;

/* The decay table a sampler needs: powers[i] = beta^(2^i) for i < npowers,
 * and gaps are clamped at cap < 2^npowers. */
typedef struct {
    const dpsel_dyadic *powers;
    unsigned npowers;
    uint64_t cap;
} dpsel_decay;

/* The race form of PF (src/core/race.c, spec/mechanisms.md §10) needs a
 * decay table of 1 to DPSEL_RACE_MAX_POWERS powers (a unit 2^top <= 2^20)
 * whose top power beta^(2^top) is below 1/2.  A geometric draw has a high
 * part below DPSEL_RACE_ROUNDS: each more unit halves its probability, so
 * the bound is passed with probability below 2^-4096. */
#define DPSEL_RACE_MAX_POWERS 21u
#define DPSEL_RACE_ROUNDS 4096u

/* The race after the candidates seen so far: the leader's noisy value
 * minus the best score, how many candidates share it, and the one kept
 * among them (uniformly).  ties == 0 before the first candidate. */
typedef struct {
    int64_t value;
    uint64_t ties;
    uint64_t chosen;
} dpsel_race;

/* Block thinning of the race (src/core/thin.c, spec/mechanisms.md §13).  A
 * level finds where independent coins of probability 2^-k come up heads
 * among consecutive candidates, a piece of 2^j candidates at a time, from
 * the probabilities (1 - 2^-k)^(2^j) that a piece has none.  The race has
 * DPSEL_THIN_LEVELS levels: level L has k = DPSEL_THIN_MIN_K + L and takes
 * pieces of at most 2^(L + 1) candidates, so a piece has a heads with
 * probability at most 2^-6.  The race's table: levels[L] points to
 * DPSEL_THIN_MAX_PIECES dyadics, (1 - 2^-k)^(2^j) for j <
 * DPSEL_THIN_MAX_PIECES (the pieces above 2^(L + 1) are unused). */
#define DPSEL_THIN_LEVELS 10u
#define DPSEL_THIN_MIN_K 7u
#define DPSEL_THIN_MAX_PIECES 11u

/* The pass that finds the best candidate also keeps the largest score of
 * each of at most DPSEL_RACE_SPANS spans of whole blocks, so that the race
 * can thin a span it never reads (src/core/thin.c). */
#define DPSEL_RACE_SPANS 256u

typedef struct {
    const dpsel_dyadic *levels[DPSEL_THIN_LEVELS];
} dpsel_thinning;

/* EM by levels (src/core/em_levels.c, spec/mechanisms.md §12) takes decay
 * tables of at most DPSEL_LEVELS_MAX_POWERS powers (gap caps below 2^21,
 * which holds every cap dpsel makes, 2^20 at most: a scratch of cap + 1
 * words), and its running sums stay at most DPSEL_LEVELS_TOTAL_MAX (the
 * largest range of dpsel_core_uniform). */
#define DPSEL_LEVELS_MAX_POWERS 21u
#define DPSEL_LEVELS_TOTAL_MAX ((uint64_t)1 << 63)

#include "logic.h"
#include "trusted.h"

#endif /* DPSEL_CORE_H */
