/* SPDX-License-Identifier: ISC */
/* Report noisy max's Laplace scale b = c D / epsilon as an exact rational
 * W / P, from the decimal epsilon (spec/mechanisms.md §14). */
#include <stdlib.h>
#include <string.h>

#include "exact.h"

#include "../core/validate.h"

/* The longest epsilon text taken, as dpsel_params_from_epsilon. */
#define RNM_EPSILON_TEXT_MAX 4096

/* W and P stay below this, so that the comparisons fit in 128 bits. */
#define RNM_SCALE_MAX ((uint64_t)1 << 62)

/* Decimal exponents beyond these make b's terms pass RNM_SCALE_MAX whatever
 * the digits (a mantissa of at most 4095 digits, c D below 2^65): refused
 * before any power of ten is computed. */
#define RNM_EXPONENT_ABOVE 40
#define RNM_EXPONENT_BELOW (-(RNM_EPSILON_TEXT_MAX + 40))

/* The decimal text (checked syntax) as mantissa 10^exponent; 0 when the
 * exponent is out of [RNM_EXPONENT_BELOW, RNM_EXPONENT_ABOVE]. */
static int split_epsilon(const char *text, mpz_t mantissa, long *exponent)
{
    size_t whole = strspn(text, "0123456789");
    const char *rest = text + whole;
    size_t fraction = 0;
    if (*rest == '.') {
        fraction = strspn(rest + 1, "0123456789");
        rest += 1 + fraction;
    }
    long written = 0;
    if (*rest == 'e' || *rest == 'E') {
        written = strtol(rest + 1, NULL, 10);  /* at most 9 digits: fits */
    }
    *exponent = written - (long)fraction;
    if (*exponent > RNM_EXPONENT_ABOVE || *exponent < RNM_EXPONENT_BELOW) {
        return 0;
    }
    char *digits = calloc(whole + fraction + 1, 1);
    if (digits == NULL) {
        return -1;
    }
    memcpy(digits, text, whole);
    memcpy(digits + whole, text + whole + 1, fraction);  /* nothing when no point */
    mpz_set_str(mantissa, digits, 10);
    free(digits);
    return 1;
}

/* b = factor / (mantissa 10^exponent) in lowest terms into W / P. */
static int scale_from_parts(const mpz_t mantissa, long exponent, uint64_t factor,
                            uint64_t sensitivity, uint64_t *w, uint64_t *p)
{
    mpq_t b;
    mpq_init(b);
    mpz_set_ui(mpq_numref(b), sensitivity);
    mpz_mul_ui(mpq_numref(b), mpq_numref(b), factor);
    mpz_set(mpq_denref(b), mantissa);
    mpz_t power;
    mpz_init(power);
    mpz_ui_pow_ui(power, 10, (unsigned long)(exponent < 0 ? -exponent : exponent));
    mpz_mul(exponent < 0 ? mpq_numref(b) : mpq_denref(b),
            exponent < 0 ? mpq_numref(b) : mpq_denref(b), power);
    mpz_clear(power);
    int rc = DPSEL_EEPSILON;
    if (mpz_sgn(mpq_denref(b)) > 0) {
        mpq_canonicalize(b);
        if (mpz_cmp_ui(mpq_numref(b), RNM_SCALE_MAX) < 0 &&
            mpz_cmp_ui(mpq_denref(b), RNM_SCALE_MAX) < 0) {
            *w = mpz_get_ui(mpq_numref(b));
            *p = mpz_get_ui(mpq_denref(b));
            rc = DPSEL_OK;
        }
    }
    mpq_clear(b);
    return rc;
}

int dpsel_exact_rnm_scale(const char *epsilon, uint64_t sensitivity, int monotonic,
                          uint64_t *w, uint64_t *p)
{
    if (sensitivity < 1 || (monotonic != 0 && monotonic != 1)) {
        return DPSEL_ERANGE;
    }
    if (!dpsel_core_decimal_syntax(epsilon, RNM_EPSILON_TEXT_MAX)) {
        return DPSEL_EEPSILON;
    }
    mpz_t mantissa;
    mpz_init(mantissa);
    long exponent;
    int split = split_epsilon(epsilon, mantissa, &exponent);
    int rc = split < 0 ? DPSEL_ENOMEM : split == 0 ? DPSEL_EEPSILON
             : scale_from_parts(mantissa, exponent, monotonic ? 1 : 2, sensitivity, w, p);
    mpz_clear(mantissa);
    return rc;
}
