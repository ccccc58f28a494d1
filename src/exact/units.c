/* Decimal scores in whole units (spec/quantiles.md §5): exact, in GMP. */
#include <stdint.h>
#include <string.h>

#include "exact.h"

_Static_assert(sizeof(long) == sizeof(int64_t), "mpz_get_si and mpz_cmp_si take the int64 range");

/* text = mantissa / 10^fraction for the strict form [+-]?[0-9]+(.[0-9]+)? of
 * at most DPSEL_DECIMAL_TEXT_MAX characters; 0 if text has another form. */
static int parse_decimal(const char *text, mpz_t mantissa, size_t *fraction)
{
    char digits[DPSEL_DECIMAL_TEXT_MAX + 1];
    size_t used = 0;
    size_t pos = 0;
    if (text[pos] == '+' || text[pos] == '-') {
        digits[used++] = text[pos] == '-' ? '-' : '+';
        pos++;
    }
    size_t whole = strspn(text + pos, "0123456789");
    if (whole == 0 || pos + whole > DPSEL_DECIMAL_TEXT_MAX) {
        return 0;
    }
    memcpy(digits + used, text + pos, whole);
    used += whole;
    pos += whole;
    *fraction = 0;
    if (text[pos] == '.') {
        pos++;
        *fraction = strspn(text + pos, "0123456789");
        if (*fraction == 0 || pos + *fraction > DPSEL_DECIMAL_TEXT_MAX) {
            return 0;
        }
        memcpy(digits + used, text + pos, *fraction);
        used += *fraction;
        pos += *fraction;
    }
    if (text[pos] != '\0') {
        return 0;
    }
    digits[used] = '\0';
    /* GMP reads a leading '-' but not a '+'. */
    return mpz_set_str(mantissa, digits + (digits[0] == '+'), 10) == 0;
}

int dpsel_decimal_to_units(const char *text, const char *unit, int64_t *out)
{
    if (text == NULL || unit == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    mpz_t value, step, scale;
    size_t value_fraction, step_fraction;
    mpz_inits(value, step, scale, (mpz_ptr)0);
    int rc = DPSEL_OK;
    if (!parse_decimal(text, value, &value_fraction)
        || !parse_decimal(unit, step, &step_fraction)) {
        rc = DPSEL_EDECIMAL;
    } else if (mpz_sgn(step) <= 0) {
        rc = DPSEL_ERANGE;
    } else {
        /* text / unit = (value 10^step_fraction) / (step 10^value_fraction) */
        mpz_ui_pow_ui(scale, 10, step_fraction);
        mpz_mul(value, value, scale);
        mpz_ui_pow_ui(scale, 10, value_fraction);
        mpz_mul(step, step, scale);
        if (!mpz_divisible_p(value, step)) {
            rc = DPSEL_EUNIT;
        } else {
            mpz_divexact(value, value, step);
            if (mpz_cmp_si(value, INT64_MIN) < 0 || mpz_cmp_si(value, INT64_MAX) > 0) {
                rc = DPSEL_ERANGE;
            } else {
                *out = (int64_t)mpz_get_si(value);
            }
        }
    }
    mpz_clears(value, step, scale, (mpz_ptr)0);
    return rc;
}
