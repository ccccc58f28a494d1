/* SPDX-License-Identifier: ISC */
/* Decimal and rational text for exact values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact.h"

void dpsel_exact_format_decimal(const char *digits, long exponent10, char *buf)
{
    /* value = 0.DIGITS * 10^exponent10, DIGITS after the sign */
    char *p = buf;
    if (digits[0] == '-') {
        *p++ = '-';
        digits++;
    }
    size_t count = strlen(digits);
    if (exponent10 <= 0 && exponent10 > -5) {
        *p++ = '0';
        *p++ = '.';
        for (long i = 0; i < -exponent10; i++) {
            *p++ = '0';
        }
        memcpy(p, digits, count + 1);
    } else if (exponent10 > 0 && (size_t)exponent10 <= count && exponent10 <= 17) {
        memcpy(p, digits, (size_t)exponent10);
        p += exponent10;
        if ((size_t)exponent10 < count) {
            *p++ = '.';
        }
        memcpy(p, digits + exponent10, count - (size_t)exponent10 + 1);
    } else {
        *p++ = digits[0];
        if (count > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, count - 1);
            p += count - 1;
        }
        sprintf(p, "e%+ld", exponent10 - 1);
    }
}

int dpsel_exact_mpfr_text(const mpfr_t value, unsigned digits, mpfr_rnd_t rnd, char *buf)
{
    if (mpfr_nan_p(value)) {
        return DPSEL_EINTERNAL;  /* no figure is ever NaN: a bug, never printed */
    }
    if (mpfr_inf_p(value) || mpfr_zero_p(value)) {
        /* mpfr_get_str gives neither a digit nor an exponent for these */
        strcpy(buf, mpfr_zero_p(value) ? "0" : mpfr_sgn(value) > 0 ? "inf" : "-inf");
        return DPSEL_OK;
    }
    mpfr_exp_t exponent10;
    char *significand = mpfr_get_str(NULL, &exponent10, 10, digits, value, rnd);
    if (significand == NULL) {
        return DPSEL_ENOMEM;
    }
    dpsel_exact_format_decimal(significand, (long)exponent10, buf);
    mpfr_free_str(significand);
    return DPSEL_OK;
}

/* Sign of p - q 10^k, for p, q > 0 and any k. */
static int compare_scaled(const mpz_t p, const mpz_t q, long k)
{
    mpz_t scaled;
    mpz_init(scaled);
    mpz_ui_pow_ui(scaled, 10, (unsigned long)labs(k));
    int sign;
    if (k >= 0) {
        mpz_mul(scaled, scaled, q);
        sign = mpz_cmp(p, scaled);
    } else {
        mpz_mul(scaled, scaled, p);
        sign = mpz_cmp(scaled, q);
    }
    mpz_clear(scaled);
    return sign;
}

/* The 17 significant digits of p / q > 0, rounded to nearest with ties to
 * even (or up, round_up), and the exponent e with p / q ~ 0.DIGITS * 10^e. */
static void decimal_digits(const mpz_t p, const mpz_t q, int round_up,
                           char digits[DPSEL_EXACT_DECIMAL_DIGITS + 1], long *exponent10)
{
    /* Find e with 10^(e-1) <= p/q < 10^e, starting from the digit counts. */
    long e = (long)mpz_sizeinbase(p, 10) - (long)mpz_sizeinbase(q, 10);
    while (compare_scaled(p, q, e) >= 0) {
        e++;
    }
    while (compare_scaled(p, q, e - 1) < 0) {
        e--;
    }
    /* N = round(p/q 10^(17 - e)), in [10^16, 10^17]. */
    long shift = DPSEL_EXACT_DECIMAL_DIGITS - e;
    mpz_t num, den, n, rem, power;
    mpz_inits(num, den, n, rem, power, (mpz_ptr)0);
    mpz_ui_pow_ui(power, 10, (unsigned long)labs(shift));
    if (shift >= 0) {
        mpz_mul(num, p, power);
        mpz_set(den, q);
    } else {
        mpz_set(num, p);
        mpz_mul(den, q, power);
    }
    mpz_fdiv_qr(n, rem, num, den);
    mpz_mul_2exp(rem, rem, 1);
    int half = mpz_cmp(rem, den);
    if (round_up ? mpz_sgn(rem) > 0 : half > 0 || (half == 0 && mpz_odd_p(n))) {
        mpz_add_ui(n, n, 1);
    }
    mpz_ui_pow_ui(power, 10, DPSEL_EXACT_DECIMAL_DIGITS);
    if (mpz_cmp(n, power) == 0) {  /* rounded up to 10^17 */
        mpz_divexact_ui(n, n, 10);
        e++;
    }
    mpz_get_str(digits, 10, n);
    *exponent10 = e;
    mpz_clears(num, den, n, rem, power, (mpz_ptr)0);
}

int dpsel_exact_rational_to_string(const mpq_t value, dpsel_format format, char **out)
{
    const mpz_srcptr num = mpq_numref(value);
    const mpz_srcptr den = mpq_denref(value);
    char *text;
    if (format == DPSEL_RATIONAL) {
        size_t size = mpz_sizeinbase(num, 10) + mpz_sizeinbase(den, 10) + 3;
        text = malloc(size);
        if (text == NULL) {
            return DPSEL_ENOMEM;
        }
        mpz_get_str(text, 10, num);
        size_t used = strlen(text);
        text[used] = '/';
        mpz_get_str(text + used + 1, 10, den);
    } else {
        text = malloc(DPSEL_EXACT_DECIMAL_DIGITS + DPSEL_EXACT_TEXT_EXTRA);
        if (text == NULL) {
            return DPSEL_ENOMEM;
        }
        if (mpz_sgn(num) == 0) {
            strcpy(text, "0");
        } else {
            char digits[DPSEL_EXACT_DECIMAL_DIGITS + 1];
            long exponent10;
            decimal_digits(num, den, 0, digits, &exponent10);
            dpsel_exact_format_decimal(digits, exponent10, text);
        }
    }
    *out = text;
    return DPSEL_OK;
}

void dpsel_exact_rational_upper_text(const mpq_t value, char *buf)
{
    if (mpq_sgn(value) == 0) {
        strcpy(buf, "0");
        return;
    }
    char digits[DPSEL_EXACT_DECIMAL_DIGITS + 1];
    long exponent10;
    decimal_digits(mpq_numref(value), mpq_denref(value), 1, digits, &exponent10);
    dpsel_exact_format_decimal(digits, exponent10, buf);
}
