/* SPDX-License-Identifier: ISC */
/*
 * Decimals in whole units (spec/quantiles.md §1, §5): decimal scores, the
 * quantile's grid, the quantile itself.  Exact: the decimal digits become
 * integers, and a quotient is either exact or rounded down on purpose (the
 * grid's per-record map), never by floating point.  Decimal scores and
 * the grid's ends of at most 18 digits are computed in 128-bit integers,
 * longer ones in GMP; a raw value, of any length, in GMP on at most 148 of
 * its digits (spec/quantiles.md §6).
 */
#include <stdint.h>
#include <string.h>

#include "exact.h"

_Static_assert(sizeof(long) == sizeof(int64_t), "mpz_get_si and mpz_cmp_si take the int64 range");

/* 128-bit integers, a GCC and clang extension: a ratio of two texts of at
 * most 18 digits each, scaled to common fraction digits, is below 10^36. */
__extension__ typedef __int128 wide;

/* The most digits a mantissa may have for the 128-bit path. */
#define SMALL_DIGITS 18

/* The strict form [+-]?[0-9]+(.[0-9]+)? of at most DPSEL_DECIMAL_TEXT_MAX
 * characters: its sign and digits (pointers into the text). */
typedef struct {
    int negative;
    const char *whole;
    size_t whole_digits;
    const char *fraction;
    size_t fraction_digits;
} decimal_form;

/* 1 if text has the strict form, 0 otherwise. */
static int split_decimal(const char *text, decimal_form *d)
{
    size_t pos = text[0] == '+' || text[0] == '-';
    d->negative = text[0] == '-';
    d->whole = text + pos;
    d->whole_digits = strspn(d->whole, "0123456789");
    pos += d->whole_digits;
    d->fraction = text + pos;
    d->fraction_digits = 0;
    if (text[pos] == '.') {
        d->fraction = text + pos + 1;
        d->fraction_digits = strspn(d->fraction, "0123456789");
        pos += 1 + d->fraction_digits;
        if (d->fraction_digits == 0) {
            return 0;
        }
    }
    return d->whole_digits > 0 && text[pos] == '\0' && pos <= DPSEL_DECIMAL_TEXT_MAX;
}

static int is_small(const decimal_form *d)
{
    return d->whole_digits + d->fraction_digits <= SMALL_DIGITS;
}

/* The digits of d as one integer (its value times 10^fraction_digits). */
static wide small_mantissa(const decimal_form *d)
{
    wide m = 0;
    for (size_t i = 0; i < d->whole_digits; i++) {
        m = 10 * m + (d->whole[i] - '0');
    }
    for (size_t i = 0; i < d->fraction_digits; i++) {
        m = 10 * m + (d->fraction[i] - '0');
    }
    return d->negative ? -m : m;
}

static void large_mantissa(const decimal_form *d, mpz_t m)
{
    char digits[DPSEL_DECIMAL_TEXT_MAX + 1];
    memcpy(digits, d->whole, d->whole_digits);
    memcpy(digits + d->whole_digits, d->fraction, d->fraction_digits);
    digits[d->whole_digits + d->fraction_digits] = '\0';
    mpz_set_str(m, digits, 10);  /* digits only: cannot fail */
    if (d->negative) {
        mpz_neg(m, m);
    }
}

static wide power_of_ten(size_t e)
{
    wide p = 1;
    while (e-- > 0) {
        p *= 10;
    }
    return p;
}

/* The quotient saturates here: beyond the int64 range either way. */
#define SATURATED ((wide)1 << 64)

static wide saturate(wide q)
{
    return q > SATURATED ? SATURATED : q < -SATURATED ? -SATURATED : q;
}

/* floor(text / unit), saturated into [-2^64, 2^64] (which holds the int64
 * range and one value beyond either end), and whether the division is
 * exact.  DPSEL_EDECIMAL for a malformed text, DPSEL_ERANGE for unit <= 0. */
static int decimal_quotient(const char *text, const char *unit, wide *quotient, int *exact)
{
    decimal_form t, u;
    if (!split_decimal(text, &t) || !split_decimal(unit, &u)) {
        return DPSEL_EDECIMAL;
    }
    if (is_small(&t) && is_small(&u)) {
        /* text / unit = (mt 10^fu) / (mu 10^ft), both below 10^36 */
        wide value = small_mantissa(&t) * power_of_ten(u.fraction_digits);
        wide step = small_mantissa(&u) * power_of_ten(t.fraction_digits);
        if (step <= 0) {
            return DPSEL_ERANGE;
        }
        wide q = value / step, r = value % step;  /* C truncates toward zero */
        *exact = r == 0;
        *quotient = r < 0 ? q - 1 : q;
        return DPSEL_OK;
    }
    mpz_t value, step, scale;
    mpz_inits(value, step, scale, (mpz_ptr)0);
    large_mantissa(&t, value);
    large_mantissa(&u, step);
    int rc = mpz_sgn(step) > 0 ? DPSEL_OK : DPSEL_ERANGE;
    if (rc == DPSEL_OK) {
        mpz_ui_pow_ui(scale, 10, u.fraction_digits);
        mpz_mul(value, value, scale);
        mpz_ui_pow_ui(scale, 10, t.fraction_digits);
        mpz_mul(step, step, scale);
        *exact = mpz_divisible_p(value, step);
        mpz_fdiv_q(value, value, step);
        *quotient = mpz_cmp_si(value, INT64_MIN) < 0 ? -SATURATED
                  : mpz_cmp_si(value, INT64_MAX) > 0 ? SATURATED
                                                     : (wide)mpz_get_si(value);
    }
    mpz_clears(value, step, scale, (mpz_ptr)0);
    return rc;
}

static int fits_int64(wide q)
{
    return q >= INT64_MIN && q <= INT64_MAX;
}

int dpsel_decimal_to_units(const char *text, const char *unit, int64_t *out)
{
    if (text == NULL || unit == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    wide q;
    int exact;
    int rc = decimal_quotient(text, unit, &q, &exact);
    if (rc == DPSEL_OK && !exact) {
        rc = DPSEL_EUNIT;
    }
    if (rc == DPSEL_OK && !fits_int64(saturate(q))) {
        rc = DPSEL_ERANGE;
    }
    if (rc == DPSEL_OK) {
        *out = (int64_t)q;
    }
    return rc;
}

/* The default resolution 10^-d, d the larger number of fraction digits of
 * the grid's ends (both well-formed), into out (DPSEL_DECIMAL_TEXT_MAX + 1
 * bytes). */
static void default_resolution(const char *lower, const char *upper, char *out)
{
    decimal_form l, u;
    split_decimal(lower, &l);
    split_decimal(upper, &u);
    size_t d = l.fraction_digits > u.fraction_digits ? l.fraction_digits : u.fraction_digits;
    if (d == 0) {
        strcpy(out, "1");
        return;
    }
    /* "0." then d - 1 zeros and a 1: d + 2 characters, d < DPSEL_DECIMAL_TEXT_MAX */
    memset(out, '0', d + 1);
    out[1] = '.';
    out[d + 1] = '1';
    out[d + 2] = '\0';
}

int dpsel_grid_init(dpsel_grid *grid, const char *lower, const char *upper,
                    const char *resolution)
{
    if (grid == NULL || lower == NULL || upper == NULL) {
        return DPSEL_ENULL;
    }
    decimal_form l, u, r;
    if (!split_decimal(lower, &l) || !split_decimal(upper, &u)
        || (resolution != NULL && !split_decimal(resolution, &r))) {
        return DPSEL_EDECIMAL;
    }
    char unit[DPSEL_DECIMAL_TEXT_MAX + 1];
    if (resolution != NULL) {
        strcpy(unit, resolution);  /* the strict form: at most DPSEL_DECIMAL_TEXT_MAX */
    } else {
        default_resolution(lower, upper, unit);
    }
    int64_t low, high;
    int rc = dpsel_decimal_to_units(lower, unit, &low);
    if (rc == DPSEL_OK) {
        rc = dpsel_decimal_to_units(upper, unit, &high);
    }
    if (rc == DPSEL_OK && low > high) {
        rc = DPSEL_ERANGE;
    }
    if (rc == DPSEL_OK) {
        grid->lower = low;
        grid->upper = high;
        strcpy(grid->resolution, unit);
    }
    return rc;
}

/* ------------------------------------------------------------ raw values */

/* A raw value (a record's), of any length: [+-]?[0-9]+(.[0-9]+)? with an
 * optional exponent [eE][+-]?[0-9]+, or inf, infinity or nan in any case
 * with an optional sign.  Its digits D = whole then fraction stand for
 * +-0.D x 10^(whole_digits + exponent). */
typedef enum { VALUE_NUMBER, VALUE_INFINITE, VALUE_NAN } value_kind;

typedef struct {
    value_kind kind;
    int negative;
    const char *whole;
    size_t whole_digits;
    const char *fraction;
    size_t fraction_digits;
    wide exponent;  /* saturated at +-EXPONENT_CAP */
} value_form;

/* Exponents beyond this are read as this: any value whose exponent reaches
 * it is far beyond every grid's ends, or far below every resolution. */
#define EXPONENT_CAP ((wide)1 << 62)

/* The digits [0-9]+ from text on, read into *exponent, saturated at
 * EXPONENT_CAP; the number of digits (0: none). */
static size_t read_exponent(const char *text, wide *exponent)
{
    size_t count = strspn(text, "0123456789");
    *exponent = 0;
    for (size_t i = 0; i < count; i++) {
        *exponent = 10 * *exponent + (text[i] - '0');
        if (*exponent > EXPONENT_CAP) {
            *exponent = EXPONENT_CAP;
        }
    }
    return count;
}

/* 1 if text is the lower-case ASCII word in any case (never by the
 * locale: in a Turkish one, tolower('I') is not 'i'). */
static int is_word(const char *text, const char *word)
{
    for (; *word != '\0'; text++, word++) {
        if (*text != *word && !(*text >= 'A' && *text <= 'Z' && *text - 'A' + 'a' == *word)) {
            return 0;
        }
    }
    return *text == '\0';
}

/* 1 if text is a raw value (value_form's comment), 0 otherwise. */
static int split_value(const char *text, value_form *v)
{
    memset(v, 0, sizeof *v);
    v->negative = text[0] == '-';
    const char *rest = text + (text[0] == '+' || text[0] == '-');
    if (is_word(rest, "inf") || is_word(rest, "infinity") || is_word(rest, "nan")) {
        v->kind = is_word(rest, "nan") ? VALUE_NAN : VALUE_INFINITE;
        return 1;
    }
    v->whole = rest;
    v->whole_digits = strspn(rest, "0123456789");
    rest += v->whole_digits;
    v->fraction = rest;
    if (*rest == '.') {
        v->fraction = ++rest;
        v->fraction_digits = strspn(rest, "0123456789");
        rest += v->fraction_digits;
        if (v->fraction_digits == 0) {
            return 0;
        }
    }
    if (*rest == 'e' || *rest == 'E') {
        int negative_exponent = rest[1] == '-';
        rest += 1 + (rest[1] == '+' || rest[1] == '-');
        size_t digits = read_exponent(rest, &v->exponent);
        if (digits == 0) {
            return 0;
        }
        rest += digits;
        v->exponent = negative_exponent ? -v->exponent : v->exponent;
    }
    return v->whole_digits > 0 && *rest == '\0';
}

/* 1 if the decimal d is above 0. */
static int is_positive(const decimal_form *d)
{
    return !d->negative && (strspn(d->whole, "0") < d->whole_digits
                            || strspn(d->fraction, "0") < d->fraction_digits);
}

/* Digit i of D (i < whole_digits + fraction_digits), as a character. */
static char value_digit(const value_form *v, size_t i)
{
    return i < v->whole_digits ? v->whole[i] : v->fraction[i - v->whole_digits];
}

/* The number of leading zeros of D (all of D for a zero). */
static size_t leading_zeros(const value_form *v)
{
    size_t zeros = strspn(v->whole, "0");
    if (zeros < v->whole_digits) {
        return zeros;
    }
    return v->whole_digits + strspn(v->fraction, "0");
}

/* 1 if a digit of D from `first` on is not 0. */
static int nonzero_from(const value_form *v, wide first)
{
    size_t n = v->whole_digits + v->fraction_digits;
    size_t start = first < 0 ? 0 : first < (wide)n ? (size_t)first : n;
    size_t in_whole = start < v->whole_digits ? v->whole_digits - start : 0;
    size_t from_fraction = start > v->whole_digits ? start - v->whole_digits : 0;
    /* strspn stops at the point, the exponent or the end: never past */
    return strspn(v->whole + start, "0") < in_whole
           || strspn(v->fraction + from_fraction, "0") < v->fraction_digits - from_fraction;
}

/* An integer part of |w| = |v| 10^f with at least this many significant
 * digits is at least 10^148, so |w| / r > 10^20 > 2^64 for any mantissa r of
 * the resolution (below 10^128): the value lies beyond the grid's ends, on
 * the side of its sign. */
#define INTEGER_DIGITS_BEYOND 149

/* The grid point of a nonzero value v in units of R = r / 10^f:
 * floor(v 10^f / r) = floor(floor(v 10^f) / r), clamped into the grid.
 * floor(v 10^f) is D's first k = whole_digits + exponent + f digits (with
 * zeros past D's end), minus one for a negative v with a nonzero digit
 * after them; its significant digits are fewer than INTEGER_DIGITS_BEYOND,
 * so the work is bounded whatever the text's length and exponent. */
/* The most digits of floor(v 10^f) the 128-bit path takes: with a
 * resolution mantissa of at most SMALL_DIGITS digits, both are below 10^36. */
#define SMALL_FLOOR_DIGITS 36

/* floor(F / r) clamped into the grid, for F the integer `digits`, negated
 * and less `below` when negative, and r the mantissa of u: in 128-bit
 * integers. */
static int64_t small_point(const dpsel_grid *grid, const char *digits, int negative, int below,
                           const decimal_form *u)
{
    wide floor = 0;
    for (const char *d = digits; *d != '\0'; d++) {
        floor = 10 * floor + (*d - '0');
    }
    floor = negative ? -floor - below : floor;
    wide step = small_mantissa(u);
    wide q = floor / step - (floor % step < 0);  /* C truncates toward zero */
    return q < grid->lower ? grid->lower : q > grid->upper ? grid->upper : (int64_t)q;
}

/* The same in GMP, for any digits and mantissa. */
static int64_t large_point(const dpsel_grid *grid, const char *digits, int negative, int below,
                           const decimal_form *u)
{
    mpz_t floor, step;
    mpz_inits(floor, step, (mpz_ptr)0);
    mpz_set_str(floor, digits, 10);  /* digits only: cannot fail */
    if (negative) {
        mpz_add_ui(floor, floor, (unsigned long)below);
        mpz_neg(floor, floor);
    }
    large_mantissa(u, step);
    mpz_fdiv_q(floor, floor, step);
    int64_t point = mpz_cmp_si(floor, grid->lower) < 0 ? grid->lower
                  : mpz_cmp_si(floor, grid->upper) > 0 ? grid->upper
                                                       : (int64_t)mpz_get_si(floor);
    mpz_clears(floor, step, (mpz_ptr)0);
    return point;
}

static void point_of_number(const dpsel_grid *grid, const value_form *v, size_t zeros,
                            const decimal_form *u, int64_t *point)
{
    wide k = (wide)v->whole_digits + v->exponent + (wide)u->fraction_digits;
    if (k - (wide)zeros >= INTEGER_DIGITS_BEYOND) {
        *point = v->negative ? grid->lower : grid->upper;
        return;
    }
    char digits[INTEGER_DIGITS_BEYOND + 1] = "0";
    size_t count = 0, n = v->whole_digits + v->fraction_digits;
    for (wide i = (wide)zeros; i < k; i++) {
        digits[count++] = i < (wide)n ? value_digit(v, (size_t)i) : '0';
    }
    digits[count > 0 ? count : 1] = '\0';
    int below = v->negative && nonzero_from(v, k);
    *point = count <= SMALL_FLOOR_DIGITS && is_small(u)
             ? small_point(grid, digits, v->negative, below, u)
             : large_point(grid, digits, v->negative, below, u);
}

int dpsel_grid_point(const dpsel_grid *grid, const char *value, int64_t *point)
{
    if (grid == NULL || value == NULL || point == NULL) {
        return DPSEL_ENULL;
    }
    if (grid->lower > grid->upper) {
        return DPSEL_ERANGE;
    }
    decimal_form u;
    value_form v;
    if (!split_decimal(grid->resolution, &u) || !split_value(value, &v)) {
        return DPSEL_EDECIMAL;
    }
    if (!is_positive(&u)) {
        return DPSEL_ERANGE;
    }
    size_t zeros = v.kind == VALUE_NUMBER ? leading_zeros(&v) : 0;
    if (v.kind == VALUE_NUMBER && zeros < v.whole_digits + v.fraction_digits) {
        point_of_number(grid, &v, zeros, &u, point);
        return DPSEL_OK;
    }
    /* clamping into [A, B] then rounding down is rounding down then
     * clamping (A and B are whole units): 0 to its point, infinities to the
     * end of their sign, NaN to the upper end (where PostgreSQL, numpy and
     * pandas sort it: above every number) */
    int64_t zero = 0 < grid->lower ? grid->lower : 0 > grid->upper ? grid->upper : 0;
    *point = v.kind == VALUE_NUMBER ? zero
           : v.kind == VALUE_INFINITE && v.negative ? grid->lower : grid->upper;
    return DPSEL_OK;
}

int dpsel_grid_points(const dpsel_grid *grid, const char *const *values, size_t m,
                      int64_t *points, size_t *failed)
{
    if (grid == NULL || failed == NULL || (m > 0 && (values == NULL || points == NULL))) {
        return DPSEL_ENULL;
    }
    for (size_t i = 0; i < m; i++) {
        int rc = dpsel_grid_point(grid, values[i], &points[i]);
        if (rc != DPSEL_OK) {
            *failed = i;
            return rc;
        }
    }
    return DPSEL_OK;
}

/* value / 10^fraction as a decimal with exactly `fraction` digits after
 * the point (none when fraction is 0) into buf; DPSEL_ERANGE if it does not
 * fit in buf_size bytes. */
static int write_with_point(const mpz_t value, size_t fraction, char *buf, size_t buf_size)
{
    int negative = mpz_sgn(value) < 0;
    char digits[DPSEL_UNITS_TEXT_MAX];  /* |value| < 2^63 10^DPSEL_DECIMAL_TEXT_MAX */
    mpz_get_str(digits, 10, value);
    const char *magnitude = digits + negative;
    size_t count = strlen(magnitude);
    size_t whole = count > fraction ? count - fraction : 0;
    size_t zeros = fraction - (count - whole);  /* between the point and the digits */
    size_t needed = (size_t)negative + (whole > 0 ? whole : 1) + (fraction > 0 ? 1 + fraction : 0) + 1;
    if (needed > buf_size) {
        return DPSEL_ERANGE;
    }
    size_t pos = 0;
    if (negative) {
        buf[pos++] = '-';
    }
    if (whole == 0) {
        buf[pos++] = '0';
    }
    memcpy(buf + pos, magnitude, whole);
    pos += whole;
    if (fraction > 0) {
        buf[pos++] = '.';
        memset(buf + pos, '0', zeros);
        pos += zeros;
        memcpy(buf + pos, magnitude + whole, count - whole);
        pos += count - whole;
    }
    buf[pos] = '\0';
    return DPSEL_OK;
}

int dpsel_units_to_decimal(int64_t units, const char *unit, char *buf, size_t buf_size)
{
    if (unit == NULL || buf == NULL) {
        return DPSEL_ENULL;
    }
    decimal_form u;
    if (!split_decimal(unit, &u)) {
        return DPSEL_EDECIMAL;
    }
    mpz_t value;
    mpz_init(value);
    large_mantissa(&u, value);
    int rc = mpz_sgn(value) > 0 ? DPSEL_OK : DPSEL_ERANGE;
    if (rc == DPSEL_OK) {
        /* units x unit = units x mantissa / 10^fraction: the mantissa's
         * digits with the point put back `fraction` places from the right */
        mpz_mul_si(value, value, (long)units);
        rc = write_with_point(value, u.fraction_digits, buf, buf_size);
    }
    mpz_clear(value);
    return rc;
}

int dpsel_exact_decimal_value(const char *text, mpq_t value)
{
    decimal_form d;
    if (!split_decimal(text, &d)) {
        return DPSEL_EDECIMAL;
    }
    large_mantissa(&d, mpq_numref(value));
    mpz_ui_pow_ui(mpq_denref(value), 10, d.fraction_digits);
    mpq_canonicalize(value);
    return DPSEL_OK;
}

int dpsel_quantile_fraction(const char *q, uint64_t *a, uint64_t *b, uint64_t *sensitivity)
{
    if (q == NULL || a == NULL || b == NULL || sensitivity == NULL) {
        return DPSEL_ENULL;
    }
    mpq_t ratio;
    mpq_init(ratio);
    int rc = dpsel_exact_decimal_value(q, ratio);
    /* 0 < q < 1 in lowest terms, b within the limit */
    if (rc == DPSEL_OK) {
        rc = mpq_sgn(ratio) > 0 && mpz_cmp(mpq_numref(ratio), mpq_denref(ratio)) < 0
             && mpz_cmp_ui(mpq_denref(ratio), DPSEL_QUANTILE_DENOMINATOR_MAX) <= 0
             ? DPSEL_OK : DPSEL_ERANGE;
    }
    if (rc == DPSEL_OK) {
        *a = mpz_get_ui(mpq_numref(ratio));
        *b = mpz_get_ui(mpq_denref(ratio));
        *sensitivity = *a > *b - *a ? *a : *b - *a;
    }
    mpq_clear(ratio);
    return rc;
}
