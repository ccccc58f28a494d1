/* SPDX-License-Identifier: ISC */
/*
 * JointExp, many quantiles in one release (spec/quantiles.md §8): the
 * problem on the grid (runs by rank, targets), the forward tables of its
 * dynamic program as MPFR enclosures, and the exact backward sampling.
 * Outside the verified core: tested, not proved.
 *
 * Notation (§8): values x_1 <= ... <= x_n (clamped grid points), ranks
 * k = 0 .. n, run k = (x_k, x_(k+1)] on the grid (x_0 = lower - 1,
 * x_(n+1) = upper), of length l_k >= 0 (0 when values tie); quantiles
 * p_1 < ... < p_m with least common denominator B, steps
 * d_i = B (p_i - p_(i-1)) (p_0 = 0, p_(m+1) = 1), targets T_i = d_i n,
 * kernel K_i(D) = beta^|B D - T_i|.
 *
 * The forward tables, for quantile i = 1 .. m (row i - 1) and rank k:
 *   f(i, k, j)  the total weight of the prefixes o_1 <= ... <= o_i with
 *               L(o_i) = k and exactly j of o_1 .. o_i in run k, i.e.
 *               prod_(t <= i) K_t(k_t - k_(t-1)) times, per run, the
 *               multiset coefficient C(l + r - 1, r) of the r of o_1 .. o_i
 *               in it (r = j for run k);
 *   entry(i, k) = f(i, k, 1)   (the i-th quantile opens run k);
 *   total(i, k) = sum_j f(i, k, j).
 * f(i, k, j) = entry(i - j + 1, k) prod_(s = 2 .. j) beta^(T_(i-j+s))
 * (l_k + s - 1) / s, so the entries and totals hold the whole table.
 * The weight of the whole distribution is
 *   Z = sum_k total(m, k) K_(m+1)(n - k).
 */
#ifndef DPSEL_EXACT_JOINT_H
#define DPSEL_EXACT_JOINT_H

#include <stddef.h>
#include <stdint.h>

#include <mpfr.h>

#include "../base/progress_meter.h"
#include "dpsel.h"

/* 128-bit unsigned integers (a GCC and clang extension): the targets and
 * the kernels' exponents reach B n, past 2^64 when B is near
 * DPSEL_QUANTILE_DENOMINATOR_MAX (at most 10^18 2^56 < 2^117). */
__extension__ typedef unsigned __int128 dpsel_joint_wide;

/* The most values a JointExp problem takes: the forward tables of more
 * need at least 160 m (n + 1) > 2^63 bytes, more than a 64-bit machine
 * addresses, so past it the problem is DPSEL_ENOMEM (a resource failure,
 * the same for every n past it), never a refusal of the data. */
#define DPSEL_JOINT_VALUES_ALLOCATABLE ((uint64_t)1 << 56)

/* The problem: public parameters and the runs of the data. */
typedef struct {
    uint64_t x;          /* beta = x / 2^y */
    unsigned y;
    size_t m;            /* quantiles */
    size_t n;            /* values */
    uint64_t denominator;  /* B */
    uint64_t *step;      /* m + 1: d_i, step[i - 1] for i = 1 .. m + 1 */
    dpsel_joint_wide *target;  /* m + 1: T_i = d_i n, target[i - 1] */
    uint64_t *length;    /* n + 1: l_k */
    int64_t *first;      /* n + 1: run k's first grid point x_k + 1 */
} dpsel_joint_problem;

/* One enclosure table: number[row * (n + 1) + k], row = i - 1. */
typedef struct {
    __mpfr_struct *number;
    void *limbs;         /* their significands, in one block */
    size_t count;
} dpsel_joint_numbers;

/* The forward tables at one precision: lo[...] <= exact <= hi[...]. */
typedef struct {
    mpfr_prec_t prec;
    dpsel_joint_numbers entry_lo, entry_hi;  /* entry(i, k), m x (n + 1) */
    dpsel_joint_numbers total_lo, total_hi;  /* total(i, k), m x (n + 1) */
    mpfr_t z_lo, z_hi;                       /* Z */
} dpsel_joint_tables;

/* count numbers of precision prec, each +0, their significands in one
 * block (MPFR's custom interface: no mpfr_clear; freed at once).
 * DPSEL_ENOMEM (then nothing is left allocated). */
int dpsel_exact_joint_numbers_new(dpsel_joint_numbers *a, size_t count, mpfr_prec_t prec);
void dpsel_exact_joint_numbers_free(dpsel_joint_numbers *a);

/* beta = x / 2^y into beta (of at least 64 bits), exactly. */
void dpsel_exact_joint_beta(mpfr_ptr beta, const dpsel_joint_problem *p);

/* out = beta^e rounded in direction rnd (one correctly rounded operation,
 * mpfr_pow_ui or, past 64 bits, mpfr_pow_z). */
void dpsel_exact_joint_power(mpfr_ptr out, mpfr_srcptr beta, dpsel_joint_wide e, mpfr_rnd_t rnd);

/* out = v e rounded in direction rnd (e exact at 128 bits). */
void dpsel_exact_joint_mul_wide(mpfr_ptr out, mpfr_srcptr v, dpsel_joint_wide e, mpfr_rnd_t rnd);

/* Whether B log2(1/beta) <= DPSEL_JOINT_DECAY_MAX for beta = x / 2^y
 * (log2 rounded outward: an exact upper bound is compared).  Call it
 * between dpsel_exact_mpfr_enter and dpsel_exact_mpfr_leave. */
int dpsel_exact_joint_decay_within(uint64_t x, unsigned y, uint64_t denominator);

/* Whether an MPFR exception flag is raised (NaN, overflow, underflow,
 * division by zero, erange): none can be, given the limits
 * (spec/quantiles.md §8, Exponents). */
int dpsel_exact_joint_flags_raised(void);

/* The first precision of the tables and the last: past it a draw stops
 * with DPSEL_EUNLIKELY (spec/quantiles.md §8 bounds its probability). */
#define DPSEL_JOINT_PREC_FIRST 64
#define DPSEL_JOINT_PREC_MAX 4096

/* Checks the quantiles a[i] / b[i] (lowest terms, increasing, in (0, 1),
 * m >= 1, m <= DPSEL_JOINT_QUANTILES_MAX) and gives B and the sensitivity
 * D = 2 (B - min d_i).  DPSEL_ENULL, DPSEL_ERANGE (with *bad the index of
 * the quantile at fault: not a fraction in lowest terms in (0, 1), not
 * above the one before it, or B past DPSEL_QUANTILE_DENOMINATOR_MAX). */
int dpsel_exact_joint_quantiles(const uint64_t *a, const uint64_t *b, size_t m,
                                uint64_t *denominator, uint64_t *sensitivity, size_t *bad);

/* The problem for base x / 2^y, the quantiles as above and the sorted
 * values[0 .. n - 1] (clamped into lower .. upper).  DPSEL_ERANGE (the
 * quantiles, B log2(1/beta) above DPSEL_JOINT_DECAY_MAX, a grid of more
 * than 2^62 points), DPSEL_ENOMEM (also n above
 * DPSEL_JOINT_VALUES_ALLOCATABLE).  Free with dpsel_exact_joint_problem_free (also
 * after a failure). */
int dpsel_exact_joint_problem_init(dpsel_joint_problem *p, uint64_t x, unsigned y,
                                   const uint64_t *a, const uint64_t *b, size_t m,
                                   const int64_t *sorted, size_t n, int64_t lower,
                                   int64_t upper);
void dpsel_exact_joint_problem_free(dpsel_joint_problem *p);

/* The forward tables of p at precision prec (DPSEL_JOINT_PREC_FIRST ..
 * DPSEL_JOINT_PREC_MAX): O(m^2 n) operations in O(m n) numbers (about
 * 4 m (n + 1) (32 + prec / 8) bytes), every one rounded outward, none
 * subtracted.  rng's interrupt check (NULL: none) is asked every
 * DPSEL_INTERRUPT_EVERY steps of a rank and a quantile (each O(m)), and
 * progress (NULL: none) counts dpsel_exact_joint_rank_steps a rank and
 * side, then dpsel_exact_joint_weight_steps for Z.  DPSEL_ENOMEM, DPSEL_ECANCELED,
 * DPSEL_EINTERNAL (an MPFR exception flag raised: none can be).  Free with
 * dpsel_exact_joint_tables_free (also after a failure).  Call it between
 * dpsel_exact_mpfr_enter and dpsel_exact_mpfr_leave (mpfr_env.h): it
 * clears MPFR's flags. */
int dpsel_exact_joint_forward(dpsel_joint_tables *t, const dpsel_joint_problem *p,
                              mpfr_prec_t prec, const dpsel_rng *rng, dpsel_progress *progress);
void dpsel_exact_joint_tables_free(dpsel_joint_tables *t);

/* The bounds of table entry (row, k) */
static inline mpfr_ptr dpsel_exact_joint_at(const dpsel_joint_numbers *table,
                                            const dpsel_joint_problem *p, size_t row, size_t k)
{
    return &table->number[row * (p->n + 1) + k];
}

/* The cumulative weights of the draw of a rank k' = 0 .. last in row
 * `row` before a rank `end` (last <= end <= n) with the kernel of target
 * `target`: cum[0] = 0 and cum[t + 1] = cum[t] + total(row, t)
 * beta^|B (end - t) - target|, lower bounds in cum_lo and upper bounds in
 * cum_hi (at least last + 2 numbers each, of the tables' precision).
 * cum[n + 1] for row m - 1, end = last = n and target T_(m+1) is Z.  rng's
 * interrupt check (NULL: none) is asked every DPSEL_INTERRUPT_EVERY
 * ranks.  DPSEL_ECANCELED, DPSEL_EINTERNAL (arguments out of range). */
int dpsel_exact_joint_cumulative(const dpsel_joint_problem *p, const dpsel_joint_tables *t,
                                 size_t row, dpsel_joint_wide target, uint64_t end,
                                 uint64_t last,
                                 const dpsel_rng *rng, const dpsel_joint_numbers *cum_lo,
                                 const dpsel_joint_numbers *cum_hi);

/* The work of JointExp in steps, each about one MPFR operation at the
 * tables' first precision (a few tens of ns), counted from the sizes m and
 * n alone, never from the values or the random bits: the forward tables'
 * steps at one rank, on one side (O(m) for each of the m quantiles); Z's,
 * once (a sum over the ranks, both sides); one release's (a draw over at
 * most n + 1 ranks and m places for each quantile).  Saturated at
 * UINT64_MAX. */
uint64_t dpsel_exact_joint_rank_steps(size_t m);
uint64_t dpsel_exact_joint_weight_steps(size_t n);
uint64_t dpsel_exact_joint_release_steps(size_t m, size_t n);

/* count releases' steps (2 (n + 1) rank steps, Z's, count release steps)
 * and an upper bound of their memory in bytes (the tables and the draws'
 * cumulative weights at the first precision, the problem, the releases),
 * saturated at UINT64_MAX: dpsel_quantiles_joint_select_cost. */
void dpsel_exact_joint_cost(size_t m, size_t n, size_t count, uint64_t *steps, uint64_t *bytes);

/* count >= 1 independent JointExp releases: out[r m + i] the grid point
 * of quantile i in release r, non-decreasing in i, with the exact JointExp
 * law of p.  The tables are made once (and recomputed at twice the
 * precision when a draw's bounds cannot decide it); each release is one
 * backward pass, O(m n + m^2).  progress (NULL: none), expecting
 * dpsel_exact_joint_cost's steps, counts the tables' and then
 * dpsel_exact_joint_release_steps after each release (a refinement's
 * tables count on, capped at the total: the fraction never goes back),
 * and finishes before out is written.  DPSEL_ENOMEM, DPSEL_ERANDOM, DPSEL_EUNLIKELY,
 * DPSEL_ECANCELED, DPSEL_EINTERNAL; out untouched on failure. */
int dpsel_exact_joint_sample(const dpsel_joint_problem *p, dpsel_rng *rng, size_t count,
                             int64_t *out, dpsel_progress *progress);

#endif
