/* SPDX-License-Identifier: ISC */
/*
 * JointExp's distribution by listing every tuple (spec/quantiles.md §8):
 * every non-decreasing m-tuple o_1 <= ... <= o_m of the grid lower ..
 * upper gets the weight beta^s(o), s(o) = sum_(i = 1 .. m + 1) |B (k_i -
 * k_(i-1)) - T_i|, k_i = L(o_i) the values below o_i (k_0 = 0, k_(m+1) =
 * n), B the least common denominator of the quantiles, T_i = B (p_i -
 * p_(i-1)) n; the probabilities are the weights over their sum, exact GMP
 * rationals (beta = x / 2^y is dyadic).  Independent of the library's
 * dynamic program: it is the definition, tuple by tuple.  For small grids
 * only (the tuples are C(N + m - 1, m)); the scores are kept in int64, so
 * B n stays small in the cases that use it.
 */
#ifndef DPSEL_TEST_JOINT_REFERENCE_H
#define DPSEL_TEST_JOINT_REFERENCE_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t m;          /* quantiles */
    size_t n;          /* values */
    uint64_t points;   /* grid points N */
    size_t tuples;     /* C(N + m - 1, m) */
    int64_t *tuple;    /* tuples x m grid points, in lexicographic order */
    int64_t *score;    /* tuples: s(o), the weight's exponent */
    mpq_t *joint;      /* tuples: P(o) */
    mpq_t *run;        /* m x (n + 1): run[i (n + 1) + k] = P(k_i = k) */
    mpq_t *point;      /* m x N: point[i N + v - lower] = P(o_i = v) */
    mpq_t *rank_error; /* m: E |k_i - p_i n| */
} joint_reference;

/* The distribution of JointExp with base x / 2^y for the quantiles
 * qa[i] / qb[i] (lowest terms, increasing) of values[0 .. n - 1] (clamped
 * into the grid here), on the grid lower .. upper.  0 on success, -1 when
 * the tuples would pass 10^6 or memory runs out. */
int joint_reference_new(joint_reference *ref, uint64_t x, unsigned y, const uint64_t *qa,
                        const uint64_t *qb, size_t m, const int64_t *values, size_t n,
                        int64_t lower, int64_t upper);

void joint_reference_free(joint_reference *ref);

/* B, the least common denominator of qb[0 .. m - 1], and the sensitivity
 * of the utility, D = 2 (B - min_i B (p_i - p_(i-1))) (p_0 = 0, p_(m+1) =
 * 1). */
uint64_t joint_reference_denominator(const uint64_t *qb, size_t m);
uint64_t joint_reference_sensitivity(const uint64_t *qa, const uint64_t *qb, size_t m);

/* Whether B log2(1/beta) <= 16 (DPSEL_JOINT_DECAY_MAX) for beta = x / 2^y,
 * exactly: 2^(y B) <= 2^16 x^B in integers (B y small). */
int joint_reference_decay_within(uint64_t x, unsigned y, uint64_t denominator);

/* The first of bases[start], bases[start + 1], ... (cyclically; each
 * { x, y }) that JointExp takes with the quantiles' denominator B: the
 * random cases keep their base unless the rule refuses it. */
size_t joint_reference_base_taken(const uint64_t (*bases)[2], size_t count, size_t start,
                                  uint64_t denominator);

#endif
