/* SPDX-License-Identifier: ISC */
/*
 * The exact-arithmetic layer: MPFR and GMP computations on dyadic and
 * rational numbers.  On the sampling path (the decay table) every MPFR
 * operation must be exact and is checked; the parameter search and the
 * reported epsilon use directed rounding, so they are rigorous bounds.
 */
#ifndef DPSEL_EXACT_H
#define DPSEL_EXACT_H

#include <gmp.h>
#include <mpfr.h>

#include "../base/progress_meter.h"
#include "../core/core.h"

/* The exact table powers[i] = beta^(2^i), i < bitlen(cap), for the decay of a
 * selector.  Owns the digit storage. */
typedef struct {
    dpsel_dyadic powers[64];
    uint64_t *storage[64];
    unsigned npowers;
} dpsel_decay_table;

/* Builds the table for beta = x / 2^y and the gap cap.  DPSEL_ENOMEM or
 * DPSEL_EINEXACT on failure (then nothing is left allocated). */
int dpsel_exact_decay_table_build(dpsel_decay_table *table, uint64_t x, unsigned y,
                                  uint64_t cap);
void dpsel_exact_decay_table_free(dpsel_decay_table *table);

/* The number of level trials of the hardened EM by levels
 * (src/core/em_levels_hardened.c): ceil(512 / P), P = prod_i m_i a lower
 * bound of the product of the table's powers with their leading zeros taken
 * off (m_i = beta^(2^i) 2^lead_i, in [1/2, 1)), rounded so that the count
 * is never too small.  A trial keeps a level with probability at least P/4
 * (spec/timing.md §5), so all of them fail with probability below e^-128.
 * At most 2^(npowers + 9).  DPSEL_ENOMEM or DPSEL_EINEXACT on failure. */
int dpsel_exact_level_trials(const dpsel_decay_table *table, uint64_t *trials);

/* The table of block thinning (core.h): for level L, k = DPSEL_THIN_MIN_K +
 * L, the powers (1 - 2^-k)^(2^j), j < DPSEL_THIN_MAX_PIECES, exact: the
 * decay table of the base 1 - 2^-k (level[L]), and the core's view of
 * them (core.levels[L] = level[L].powers). */
typedef struct {
    dpsel_decay_table level[DPSEL_THIN_LEVELS];
    dpsel_thinning core;
} dpsel_thinning_table;

/* Builds the thinning table.  DPSEL_ENOMEM or DPSEL_EINEXACT on failure
 * (then nothing is left allocated). */
int dpsel_exact_thinning_build(dpsel_thinning_table *table);
void dpsel_exact_thinning_free(dpsel_thinning_table *table);

/* eps += count times the realised epsilon of valid params, rounded upward
 * (at eps's precision; 256 bits or more keep the count exact). */
void dpsel_exact_add_epsilon(mpfr_t eps, const dpsel_params *params, uint64_t count);


/* The default gap cap: the least C >= 1 with beta^C <= 2^-64, at most
 * DPSEL_GAP_CAP_MAX.  Requires a valid base in lowest terms. */
int dpsel_exact_default_gap_cap(uint64_t x, unsigned y, uint64_t *cap);

/* The significant digits of a decimal probability or bound. */
#define DPSEL_EXACT_DECIMAL_DIGITS 17

/* What a decimal text takes beyond its digits: a sign, a point, "e+" and an
 * exponent of up to 19 digits (MPFR's widest range), and the final NUL. */
#define DPSEL_EXACT_TEXT_EXTRA 24

/* Writes the decimal number 0.DIGITS * 10^exponent10 (DIGITS an optional
 * '-' then a non-empty string of decimal digits, the first non-zero: as
 * mpfr_get_str gives a finite non-zero number) in the style dpsel prints:
 * plain for 1e-5 <= |value| < 1e17, else d.ddde[+-]X, a '-' before a
 * negative one.  buf must hold strlen(digits) + DPSEL_EXACT_TEXT_EXTRA
 * bytes. */
void dpsel_exact_format_decimal(const char *digits, long exponent10, char *buf);

/* The number as text of `digits` (1..100) significant digits rounded in the
 * direction rnd (MPFR_RNDU for an upper bound), in dpsel's decimal style,
 * into buf (digits + DPSEL_EXACT_TEXT_EXTRA bytes): "0" for zero, "inf" and
 * "-inf" for the infinities.  DPSEL_EINTERNAL for NaN (nothing written),
 * DPSEL_ENOMEM. */
int dpsel_exact_mpfr_text(const mpfr_t value, unsigned digits, mpfr_rnd_t rnd, char *buf);

/* The non-negative rational value as 17 significant digits rounded up
 * (an upper bound) in dpsel's decimal style, into buf (33 bytes). */
void dpsel_exact_rational_upper_text(const mpq_t value, char *buf);

/* The non-negative rational value as a new string: "num/den" in lowest
 * terms, or 17 significant digits correctly rounded (ties to even).
 * DPSEL_ENOMEM on failure. */
int dpsel_exact_rational_to_string(const mpq_t value, dpsel_format format, char **out);

/* An array of count MPFR numbers of precision prec (NULL if out of memory),
 * and its release (safe on NULL); numbers.c. */
mpfr_t *dpsel_exact_numbers_new(size_t count, mpfr_prec_t prec);
void dpsel_exact_numbers_free(mpfr_t *a, size_t count);

/* Rigorous bounds lo[l] <= P_l <= hi[l] (enclosure.c explains why), P_l the
 * probability that the mechanism releases one given candidate of level l.
 * The levels are the distinct clamped gaps gap[0] < ... < gap[count-1] with
 * members[l] >= 1 candidates each (n = sum members), beta = x / 2^y valid.
 * lo[l] and hi[l] must be initialised; they are set to precision prec, the
 * working precision: the bounds hold at any precision, their relative width
 * is a small multiple of n 2^-prec.
 * PF counts its work on progress (NULL: none), whose phase the caller has
 * started.
 * DPSEL_ENOMEM on failure, DPSEL_ECANCELED when progress's function asks. */
int dpsel_exact_enclose_levels(dpsel_mechanism mechanism, uint64_t x, unsigned y,
                               const uint64_t *gap, const size_t *members, size_t count,
                               mpfr_prec_t prec, dpsel_progress *progress, mpfr_t *lo,
                               mpfr_t *hi);

/* Report noisy max's Laplace scale b = c D / epsilon (c = 1 if monotonic,
 * else 2) as W / P in lowest terms, both below 2^62 (rnm_scale.c).
 * DPSEL_ERANGE (sensitivity 0, monotonic not 0/1), DPSEL_EEPSILON (epsilon
 * not a positive decimal, or W or P at 2^62 or above), DPSEL_ENOMEM. */
int dpsel_exact_rnm_scale(const char *epsilon, uint64_t sensitivity, int monotonic,
                          uint64_t *w, uint64_t *p);

/* Report noisy max's bounds lo[l] <= P_l <= hi[l] (rnm_pmf.c explains
 * why), P_l the probability that one given candidate of level l is
 * released under Laplace noise of scale b = w / p (dpsel_exact_rnm_scale):
 * the levels are the distinct unclamped gaps gap[0] = 0 < ... <
 * gap[count-1], members[l] >= 1 candidates each.  lo and hi (initialised)
 * are set at precision prec; their relative width is a small multiple of
 * n 2^-prec.  Work counted on progress (NULL: none), whose phase the
 * caller has started.  DPSEL_ETOOLARGE beyond dpsel_exact_rnm_work's
 * limits (checked first), DPSEL_ENOMEM, DPSEL_ECANCELED,
 * DPSEL_EINTERNAL (an MPFR exception flag: none can be raised). */
int dpsel_exact_rnm_enclose_levels(uint64_t w, uint64_t p, const uint64_t *gap,
                                   const size_t *members, size_t count, mpfr_prec_t prec,
                                   dpsel_progress *progress, mpfr_t *lo, mpfr_t *hi);

/* The work of that enclosure at precision prec, in bits times
 * multiply-adds, into *work: DPSEL_ETOOLARGE when it, the candidates or
 * the exponentials' range are beyond its limits, else DPSEL_OK. */
int dpsel_exact_rnm_work(uint64_t w, uint64_t p, const uint64_t *gap, const size_t *members,
                         size_t count, mpfr_prec_t prec, uint64_t *work);

/* How dpsel_exact_enclose_levels_by encloses PF: by the cheaper path for
 * the levels given (what dpsel_exact_enclose_levels does), by the
 * polynomial expansion (enclosure.c; at most 2^15 candidates, else
 * DPSEL_ETOOLARGE), or by certified quadrature (quadrature.c; any number of
 * candidates, O(levels) work per piece of [0, 1]). */
typedef enum {
    DPSEL_EXACT_PF_CHEAPER,
    DPSEL_EXACT_PF_POLYNOMIAL,
    DPSEL_EXACT_PF_QUADRATURE
} dpsel_exact_pf_path;

/* dpsel_exact_enclose_levels by the given path for PF (EM ignores it). */
int dpsel_exact_enclose_levels_by(dpsel_mechanism mechanism, dpsel_exact_pf_path path,
                                  uint64_t x, unsigned y, const uint64_t *gap,
                                  const size_t *members, size_t count, mpfr_prec_t prec,
                                  dpsel_progress *progress, mpfr_t *lo, mpfr_t *hi);

/* PF's bounds lo[l] <= P_l <= hi[l] (set at their precision) by certified
 * quadrature (quadrature.c explains why), from bounds w_lo[l] <= beta^g_l <=
 * w_hi[l] (at most 1) of the count levels' weights, members[l] >= 1 each.
 * The relative width is about 2^-prec for weights of prec + 72 + bitlen(n)
 * bits.  Counts levels x terms on progress per piece (NULL: none).
 * DPSEL_ENOMEM, DPSEL_ECANCELED when progress's function asks, or
 * DPSEL_EINTERNAL if an MPFR exception flag is raised (none can be). */
int dpsel_exact_pf_quadrature(const size_t *members, size_t count, mpfr_t *w_lo,
                              mpfr_t *w_hi, mpfr_prec_t prec, dpsel_progress *progress,
                              mpfr_t *lo, mpfr_t *hi);

/* The bounds a pmf holds (relative width below 1e-30) on the probability of
 * candidate r < n (of one member of its group, for dpsel_pmf_new_grouped)
 * and on the expected error: lo and hi, initialised by the caller, are set
 * to them at the pmf's working precision. */
void dpsel_exact_pmf_probability_mpfr(const dpsel_pmf *pmf, size_t r, mpfr_t lo, mpfr_t hi);
void dpsel_exact_pmf_expected_error_mpfr(const dpsel_pmf *pmf, mpfr_t lo, mpfr_t hi);

/* Makes sure the pmf holds its exact values, computing them (thread-safe)
 * on the first request: DPSEL_OK, DPSEL_ETOOLARGE beyond the size limits,
 * or the error that stopped the computation (DPSEL_ENOMEM, ...). */
int dpsel_exact_pmf_exact_ready(const dpsel_pmf *pmf);

/* The size of the pmf's exact rationals, known before they are computed:
 * work, their computation's as dpsel_pmf_new's limits count it (bits of
 * weight arithmetic), and bits, an upper bound of the bits of one
 * probability's numerator and denominator together (UINT64_MAX for a pmf
 * past the limits). */
void dpsel_exact_pmf_exact_size(const dpsel_pmf *pmf, uint64_t *work, uint64_t *bits);

/* dpsel_pmf_new_grouped (multiplicity NULL: dpsel_pmf_new), counting its
 * work on the meter progress (NULL: none) within its window, which it
 * finishes. */
int dpsel_exact_pmf_new_metered(dpsel_pmf **out, const dpsel_params *params,
                                dpsel_mechanism mechanism, const int64_t *scores,
                                const uint64_t *multiplicity, size_t n,
                                dpsel_progress *progress);

/* dpsel_rnm_pmf_new, counting its work on the meter progress (NULL:
 * none) within its window, which it finishes. */
int dpsel_exact_rnm_pmf_new_metered(dpsel_pmf **out, const char *epsilon, uint64_t sensitivity,
                                    int monotonic, const int64_t *scores,
                                    const uint64_t *multiplicity, size_t n,
                                    dpsel_progress *progress);

/* The same for the pmf of these arguments (as dpsel_pmf_new_grouped's),
 * from its levels alone, before any work: O(n log n).  Errors as
 * dpsel_pmf_new_grouped's checks of its arguments, and DPSEL_ENOMEM. */
int dpsel_exact_exact_size_of(const dpsel_params *params, dpsel_mechanism mechanism,
                               const int64_t *scores, const uint64_t *multiplicity, size_t n,
                               uint64_t *work, uint64_t *bits);

/* The exact probability of candidate r < n (of one member of its group;
 * dpsel_exact_pmf_exact_ready first), or NULL when the pmf cannot hold it (see
 * dpsel_exact_pmf_exact_ready). */
mpq_srcptr dpsel_exact_pmf_probability_exact(const dpsel_pmf *pmf, size_t r);

/* The correctly rounded 17-digit decimal of the number in [lo, hi], as a
 * new string, if both ends round to the same decimal (rounding is
 * monotonic); else DPSEL_ETOOLARGE.  DPSEL_ENOMEM on failure. */
int dpsel_exact_enclosure_to_decimal(const mpfr_t lo, const mpfr_t hi, char **out);

/* lo rounded down and hi rounded up to `digits` (1..100) significant digits,
 * as two new strings (nothing is left allocated on failure: DPSEL_ENOMEM,
 * DPSEL_EINTERNAL for NaN). */
int dpsel_exact_bounds_to_strings(const mpfr_t lo, const mpfr_t hi, unsigned digits,
                                  char **lo_out, char **hi_out);

/* dpsel_exact_mpfr_text as a new string: rnd MPFR_RNDD, MPFR_RNDU, or
 * MPFR_RNDN for display.  DPSEL_EINTERNAL for NaN, DPSEL_ENOMEM. */
int dpsel_exact_mpfr_to_string(const mpfr_t value, unsigned digits, mpfr_rnd_t rnd, char **out);

/* The decimal text (the form of dpsel_decimal_to_units) exactly as a
 * rational in lowest terms, into value (initialised): DPSEL_OK, or
 * DPSEL_EDECIMAL for a malformed text (value untouched). */
int dpsel_exact_decimal_value(const char *text, mpq_t value);

/* The argument checks dpsel_pmf_new and dpsel_audit share (params not
 * NULL): DPSEL_EEMPTY for n == 0; DPSEL_ERANGE for params not valid,
 * n > 2^62 or an unknown mechanism; else DPSEL_OK. */
int dpsel_exact_check_distribution(const dpsel_params *params, dpsel_mechanism mechanism, size_t n);

#endif /* DPSEL_EXACT_H */
