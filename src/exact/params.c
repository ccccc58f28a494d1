/* SPDX-License-Identifier: ISC */
/*
 * Privacy parameters: the base from an explicit x / 2^y or from a requested
 * epsilon, the default gap cap, and the realised epsilon as a rigorous upper
 * bound.  This is parameter search, outside the sampling path: MPFR with
 * directed rounding gives certified enclosures, and each search raises the
 * precision until its enclosure decides the (integer) answer.
 */
#include <stdint.h>
#include <string.h>

#include <mpfr.h>

#include "../core/validate.h"
#include "exact.h"
#include "mpfr_env.h"

#define SEARCH_PREC_FIRST 128
#define SEARCH_PREC_LAST 65536
#define EPSILON_TEXT_MAX 4096

/* Reduces x / 2^y to lowest terms (x odd). */
static void reduce_base(uint64_t *x, unsigned *y)
{
    while ((*x & 1u) == 0 && *y > 1) {
        *x >>= 1;
        (*y)--;
    }
}

/* k D with k = 1 for monotonic scores, else 2: the factor epsilon carries. */
static void set_epsilon_factor(mpfr_t factor, uint64_t sensitivity, int monotonic)
{
    mpfr_set_uj(factor, sensitivity, MPFR_RNDN);       /* exact: prec >= 64 */
    mpfr_mul_2ui(factor, factor, monotonic ? 0 : 1, MPFR_RNDN);
}

int dpsel_exact_default_gap_cap(uint64_t x, unsigned y, uint64_t *cap)
{
    /* beta^C <= 2^-64  <=>  C (y - log2 x) >= 64, so C = ceil(64 / (y - log2 x)).
     * For x = 1 that is ceil(64 / y); otherwise log2 x is irrational and an
     * enclosure of 64 / (y - log2 x) narrow enough fixes the ceiling. */
    if (x == 1) {
        *cap = (64 + y - 1) / y;
        return DPSEL_OK;
    }
    int rc = DPSEL_EINTERNAL;
    for (mpfr_prec_t prec = SEARCH_PREC_FIRST; prec <= SEARCH_PREC_LAST; prec *= 2) {
        mpfr_t lg_lo, lg_hi, lo, hi;
        mpfr_inits2(prec, lg_lo, lg_hi, lo, hi, (mpfr_ptr)0);
        mpfr_set_uj(lg_lo, x, MPFR_RNDN);
        mpfr_log2(lg_lo, lg_lo, MPFR_RNDD);
        mpfr_set_uj(lg_hi, x, MPFR_RNDN);
        mpfr_log2(lg_hi, lg_hi, MPFR_RNDU);
        /* lo <= 64 / (y - log2 x) <= hi */
        mpfr_ui_sub(lo, y, lg_lo, MPFR_RNDU);
        mpfr_ui_div(lo, 64, lo, MPFR_RNDD);
        mpfr_ui_sub(hi, y, lg_hi, MPFR_RNDD);
        mpfr_ui_div(hi, 64, hi, MPFR_RNDU);
        int above_max = mpfr_cmp_ui(lo, (unsigned long)DPSEL_GAP_CAP_MAX) >= 0;
        mpfr_ceil(lo, lo);
        mpfr_ceil(hi, hi);
        if (above_max) {
            *cap = DPSEL_GAP_CAP_MAX;
            rc = DPSEL_OK;
        } else if (mpfr_equal_p(lo, hi)) {
            uint64_t c = mpfr_get_uj(lo, MPFR_RNDN);
            *cap = c < DPSEL_GAP_CAP_MAX ? c : DPSEL_GAP_CAP_MAX;
            rc = DPSEL_OK;
        }
        mpfr_clears(lg_lo, lg_hi, lo, hi, (mpfr_ptr)0);
        if (rc == DPSEL_OK) {
            break;
        }
    }
    return rc;
}

/* Fills the fields of out from a base already checked valid. */
static int set_params(dpsel_params *out, uint64_t x, unsigned y,
                      uint64_t sensitivity, int monotonic)
{
    dpsel_params p;
    reduce_base(&x, &y);
    p.x = x;
    p.y = y;
    p.sensitivity = sensitivity;
    p.monotonic = monotonic;
    int rc = dpsel_exact_default_gap_cap(x, y, &p.gap_cap);
    if (rc == DPSEL_OK) {
        *out = p;
    }
    return rc;
}

int dpsel_params_from_base(dpsel_params *out, uint64_t x, unsigned y,
                           uint64_t sensitivity, int monotonic)
{
    if (out == NULL) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_base_valid(x, y) || sensitivity < 1 || (monotonic != 0 && monotonic != 1)) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = set_params(out, x, y, sensitivity, monotonic);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

/* Outcome of one step of the epsilon search at a given precision. */
enum { SEARCH_UNDECIDED, SEARCH_FOUND, SEARCH_NO_BASE };

/* The base must satisfy beta >= b* = exp(-eps / (k D)); the least x / 2^64
 * doing so is x = ceil(b* 2^64).  Encloses b* 2^64 in [lo, hi] and decides x
 * when the ceilings agree. */
static int search_step(const char *epsilon, uint64_t sensitivity, int monotonic,
                       mpfr_prec_t prec, uint64_t *x)
{
    mpfr_t eps_lo, eps_hi, factor, lo, hi;
    int outcome = SEARCH_UNDECIDED;
    mpfr_inits2(prec, eps_lo, eps_hi, factor, lo, hi, (mpfr_ptr)0);
    mpfr_strtofr(eps_lo, epsilon, NULL, 10, MPFR_RNDD);
    mpfr_strtofr(eps_hi, epsilon, NULL, 10, MPFR_RNDU);
    set_epsilon_factor(factor, sensitivity, monotonic);
    if (mpfr_sgn(eps_hi) <= 0) {
        outcome = SEARCH_NO_BASE;  /* epsilon == 0 */
    } else {
        /* lo = RD(exp(-RU(eps_hi / kD))) 2^64,  hi = RU(exp(-RD(eps_lo / kD))) 2^64 */
        mpfr_div(lo, eps_hi, factor, MPFR_RNDU);
        mpfr_neg(lo, lo, MPFR_RNDN);
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_mul_2ui(lo, lo, 64, MPFR_RNDD);
        mpfr_div(hi, eps_lo, factor, MPFR_RNDD);
        mpfr_neg(hi, hi, MPFR_RNDN);
        mpfr_exp(hi, hi, MPFR_RNDU);
        mpfr_mul_2ui(hi, hi, 64, MPFR_RNDU);
        mpfr_ceil(lo, lo);
        mpfr_ceil(hi, hi);
        if (mpfr_cmp_ui_2exp(lo, 1, 64) >= 0) {
            outcome = SEARCH_NO_BASE;      /* x would be 2^64: beta = 1 */
        } else if (mpfr_cmp_ui(hi, 1) <= 0) {
            *x = 1;                        /* b* 2^64 <= 1 and b* > 0 */
            outcome = SEARCH_FOUND;
        } else if (mpfr_equal_p(lo, hi)) {
            *x = mpfr_get_uj(lo, MPFR_RNDN);
            outcome = SEARCH_FOUND;
        }
    }
    mpfr_clears(eps_lo, eps_hi, factor, lo, hi, (mpfr_ptr)0);
    return outcome;
}

/* The search of dpsel_params_from_epsilon, on checked arguments. */
static int search_params(dpsel_params *out, const char *epsilon, uint64_t sensitivity,
                         int monotonic)
{
    int outcome = SEARCH_UNDECIDED;
    uint64_t x = 0;
    for (mpfr_prec_t prec = SEARCH_PREC_FIRST;
         prec <= SEARCH_PREC_LAST && outcome == SEARCH_UNDECIDED; prec *= 2) {
        outcome = search_step(epsilon, sensitivity, monotonic, prec, &x);
    }
    if (outcome == SEARCH_NO_BASE) {
        return DPSEL_EEPSILON;
    }
    if (outcome == SEARCH_UNDECIDED) {
        return DPSEL_EINTERNAL;
    }
    return set_params(out, x, 64, sensitivity, monotonic);
}

int dpsel_params_from_epsilon(dpsel_params *out, const char *epsilon,
                              uint64_t sensitivity, int monotonic)
{
    if (out == NULL || epsilon == NULL) {
        return DPSEL_ENULL;
    }
    if (sensitivity < 1 || (monotonic != 0 && monotonic != 1)) {
        return DPSEL_ERANGE;
    }
    if (!dpsel_core_decimal_syntax(epsilon, EPSILON_TEXT_MAX)) {
        return DPSEL_EEPSILON;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = search_params(out, epsilon, sensitivity, monotonic);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

int dpsel_params_set_gap_cap(dpsel_params *params, uint64_t gap_cap)
{
    if (params == NULL) {
        return DPSEL_ENULL;
    }
    if (gap_cap < 1 || gap_cap > DPSEL_GAP_CAP_MAX) {
        return DPSEL_ERANGE;
    }
    params->gap_cap = gap_cap;
    return DPSEL_OK;
}

/* epsilon = k D (y ln 2 - ln x): every step rounded upward (each operand
 * enters with the sign that makes rounding it up raise the result). */
void dpsel_exact_add_epsilon(mpfr_t eps, const dpsel_params *params, uint64_t count)
{
    mpfr_t ln2y, lnx, term, factor, times;
    mpfr_inits2(256, ln2y, lnx, term, factor, times, (mpfr_ptr)0);
    mpfr_const_log2(ln2y, MPFR_RNDU);
    mpfr_mul_ui(ln2y, ln2y, params->y, MPFR_RNDU);
    mpfr_set_uj(lnx, params->x, MPFR_RNDN);
    mpfr_log(lnx, lnx, MPFR_RNDD);
    mpfr_sub(term, ln2y, lnx, MPFR_RNDU);
    set_epsilon_factor(factor, params->sensitivity, params->monotonic);
    mpfr_set_uj(times, count, MPFR_RNDN);
    mpfr_mul(factor, factor, times, MPFR_RNDN);       /* exact: 129 bits at most */
    mpfr_mul(term, term, factor, MPFR_RNDU);
    mpfr_add(eps, eps, term, MPFR_RNDU);
    mpfr_clears(ln2y, lnx, term, factor, times, (mpfr_ptr)0);
}

/* The realised epsilon of valid params as text into buf (digits + 16
 * bytes: its decimal exponent has at most two digits, 64 D ln 2 < 10^21). */
static int epsilon_text(const dpsel_params *params, unsigned digits, char *buf)
{
    mpfr_t eps;
    mpfr_init2(eps, 256);
    mpfr_set_zero(eps, 1);
    dpsel_exact_add_epsilon(eps, params, 1);
    int rc = dpsel_exact_mpfr_text(eps, digits, MPFR_RNDU, buf);
    mpfr_clear(eps);
    return rc;
}

/* The checks of the epsilon texts: digits 1..100 and room for them. */
static int text_request_valid(unsigned digits, size_t buf_size)
{
    return digits >= 1 && digits <= 100 && buf_size >= (size_t)digits + 16;
}

int dpsel_params_epsilon(const dpsel_params *params, unsigned digits,
                         char *buf, size_t buf_size)
{
    if (params == NULL || buf == NULL) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_params_valid(params) || !text_request_valid(digits, buf_size)) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = epsilon_text(params, digits, buf);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}
