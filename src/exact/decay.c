/* SPDX-License-Identifier: ISC */
/*
 * The decay table of a selector: beta^(2^i) for i < bitlen(cap), and the
 * tables of block thinning, (1 - 2^-k)^(2^j), computed exactly with MPFR
 * (precision from dpsel_core_power_precision, every ternary value checked)
 * and stored as binary digits for the core's coins.
 */
#include <stdint.h>
#include <stdlib.h>

#include <mpfr.h>

#include "../core/gap.h"
#include "../core/precision.h"
#include "exact.h"
#include "mpfr_env.h"

/* Stores the digits of t (0 < t < 1, exact at precision prec) in entry i. */
static int store_digits(dpsel_decay_table *table, unsigned i, mpfr_srcptr t,
                        mpfr_prec_t prec)
{
    mpz_t mantissa;
    mpz_init(mantissa);
    /* t = mantissa 2^e with bitlen(mantissa) = prec, so
     * t = 2^-(lead) 0.d_0 ... d_{prec-1} with lead = -(e + prec). */
    mpfr_exp_t e = mpfr_get_z_2exp(mantissa, t);
    uint64_t words = ((uint64_t)prec + 63) / 64;
    mpz_mul_2exp(mantissa, mantissa, (mp_bitcnt_t)(words * 64 - (uint64_t)prec));
    uint64_t *storage = calloc(words, sizeof *storage);
    if (storage == NULL) {
        mpz_clear(mantissa);
        return DPSEL_ENOMEM;
    }
    mpz_export(storage, NULL, 1, sizeof *storage, 0, 0, mantissa);
    mpz_clear(mantissa);
    table->storage[i] = storage;
    table->powers[i].words = storage;
    table->powers[i].ndigits = (uint64_t)prec;
    table->powers[i].lead = (uint64_t)(-(e + (mpfr_exp_t)prec));
    return DPSEL_OK;
}

/* The table of (x / 2^y)^(2^i) for i < count, in MPFR's widest exponent
 * range: each power exact, at twice the precision of the one before. */
static int build_in_range(dpsel_decay_table *table, uint64_t x, unsigned y, unsigned count)
{
    unsigned xbits = dpsel_core_bitlen(x);
    int rc = DPSEL_OK;
    mpfr_t power;

    table->npowers = 0;
    mpfr_init2(power, (mpfr_prec_t)dpsel_core_power_precision(xbits, 0));
    if (mpfr_set_uj_2exp(power, x, -(intmax_t)y, MPFR_RNDN) != 0) {
        rc = DPSEL_EINEXACT;
    }
    for (unsigned i = 0; i < count && rc == DPSEL_OK; i++) {
        mpfr_prec_t prec = (mpfr_prec_t)dpsel_core_power_precision(xbits, i);
        if (i > 0) {
            /* beta^(2^i) = (beta^(2^(i-1)))^2, exact at twice the precision */
            if (mpfr_prec_round(power, prec, MPFR_RNDN) != 0
                || mpfr_sqr(power, power, MPFR_RNDN) != 0) {
                rc = DPSEL_EINEXACT;
                break;
            }
        }
        rc = store_digits(table, i, power, prec);
        if (rc == DPSEL_OK) {
            table->npowers = i + 1;
        }
    }
    mpfr_clear(power);
    if (rc != DPSEL_OK) {
        dpsel_exact_decay_table_free(table);
    }
    return rc;
}

int dpsel_exact_decay_table_build(dpsel_decay_table *table, uint64_t x, unsigned y,
                                  uint64_t cap)
{
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = build_in_range(table, x, y, dpsel_core_bitlen(cap));
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

/* m = 0.d_0 d_1 ..., the digits of a power after its leading zeros,
 * exactly (m's precision is that of its words). */
static int set_digits(mpfr_t m, const dpsel_dyadic *power)
{
    uint64_t words = (power->ndigits + 63) / 64;
    mpz_t mantissa;
    mpz_init(mantissa);
    mpz_import(mantissa, words, 1, sizeof *power->words, 0, 0, power->words);
    mpfr_set_prec(m, (mpfr_prec_t)(words * 64));
    int inexact = mpfr_set_z_2exp(m, mantissa, -(mpfr_exp_t)(words * 64), MPFR_RNDN);
    mpz_clear(mantissa);
    return inexact != 0 ? DPSEL_EINEXACT : DPSEL_OK;
}

static int level_trials_in_range(const dpsel_decay_table *table, uint64_t *trials)
{
    int rc = DPSEL_OK;
    mpfr_t product, m;
    mpfr_init2(product, 128);
    mpfr_init2(m, 64);
    mpfr_set_ui(product, 512, MPFR_RNDN);  /* exact */
    /* 512 / prod m_i rounded up, one division at a time: a bound above */
    for (unsigned i = 0; i < table->npowers && rc == DPSEL_OK; i++) {
        rc = set_digits(m, &table->powers[i]);
        if (rc == DPSEL_OK) {
            mpfr_div(product, product, m, MPFR_RNDU);
        }
    }
    if (rc == DPSEL_OK) {
        mpfr_ceil(product, product);
        *trials = mpfr_get_uj(product, MPFR_RNDU);
    }
    mpfr_clears(product, m, (mpfr_ptr)0);
    return rc;
}

int dpsel_exact_level_trials(const dpsel_decay_table *table, uint64_t *trials)
{
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = level_trials_in_range(table, trials);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}

int dpsel_exact_thinning_build(dpsel_thinning_table *table)
{
    /* Level L: q = 1 - 2^-k = (2^k - 1) / 2^k, and its powers q^(2^j): the
     * decay table of the base q. */
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = DPSEL_OK;
    for (unsigned level = 0; level < DPSEL_THIN_LEVELS; level++) {
        table->level[level].npowers = 0;
    }
    for (unsigned level = 0; level < DPSEL_THIN_LEVELS && rc == DPSEL_OK; level++) {
        unsigned k = DPSEL_THIN_MIN_K + level;
        rc = build_in_range(&table->level[level], ((uint64_t)1 << k) - 1, k,
                            DPSEL_THIN_MAX_PIECES);
        table->core.levels[level] = table->level[level].powers;
    }
    dpsel_exact_mpfr_leave(&host);
    if (rc != DPSEL_OK) {
        dpsel_exact_thinning_free(table);
    }
    return rc;
}

void dpsel_exact_thinning_free(dpsel_thinning_table *table)
{
    for (unsigned level = 0; level < DPSEL_THIN_LEVELS; level++) {
        dpsel_exact_decay_table_free(&table->level[level]);
    }
}

void dpsel_exact_decay_table_free(dpsel_decay_table *table)
{
    for (unsigned i = 0; i < table->npowers; i++) {
        free(table->storage[i]);
        table->storage[i] = NULL;
    }
    table->npowers = 0;
}
