/* SPDX-License-Identifier: ISC */
/* Input validation of the verified core. */
#include "validate.h"

/*@ assigns \nothing;
    behavior digit:
      assumes '0' <= c <= '9';
      ensures accepted: flag_set(\result);
    behavior other:
      assumes !('0' <= c <= '9');
      ensures refused: flag_clear(\result);
    complete behaviors;
    disjoint behaviors;
*/
static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Number of digits at s[*pos...], advancing *pos past them (at most max_len). */
/*@ requires position: \valid(pos) && *pos <= max_len;
    requires text: bounded_text(s, max_len);
    requires no_end_before: \forall integer k; 0 <= k < *pos ==> s[k] != '\0';
    requires apart: \separated(pos, s + (0 .. max_len));
    assigns *pos;
    ensures advanced: \old(*pos) <= *pos <= max_len;
    ensures counted: \result == *pos - \old(*pos);
    ensures no_end_within: \forall integer k; 0 <= k < *pos ==> s[k] != '\0';
*/
static size_t skip_digits(const char *s, size_t *pos, size_t max_len)
{
    size_t start = *pos;
    /*@ loop invariant start <= *pos <= max_len;
        loop invariant \forall integer k; 0 <= k < *pos ==> s[k] != '\0';
        loop assigns *pos;
        loop variant max_len - *pos;
    */
    while (*pos < max_len && is_digit(s[*pos])) {
        (*pos)++;
    }
    return *pos - start;
}

int dpsel_core_decimal_syntax(const char *s, size_t max_len)
{
    size_t pos = 0;
    size_t digits = skip_digits(s, &pos, max_len);
    if (pos < max_len && s[pos] == '.') {
        pos++;
        digits += skip_digits(s, &pos, max_len);
    }
    if (digits == 0) {
        return 0;
    }
    if (pos < max_len && (s[pos] == 'e' || s[pos] == 'E')) {
        pos++;
        if (pos < max_len && (s[pos] == '+' || s[pos] == '-')) {
            pos++;
        }
        size_t exponent_digits = skip_digits(s, &pos, max_len);
        if (exponent_digits == 0 || exponent_digits > 9) {
            return 0;
        }
    }
    return pos < max_len && s[pos] == '\0';
}

int dpsel_core_base_valid(uint64_t x, unsigned y)
{
    if (y < 1 || y > 64 || x == 0) {
        return 0;
    }
    //@ ghost dpsel_lemma_pow2_shift();
    return y == 64 || x < ((uint64_t)1 << y);
}

int dpsel_core_params_valid(const dpsel_params *params)
{
    return dpsel_core_base_valid(params->x, params->y)
        && (params->x & 1u) == 1u
        && params->sensitivity >= 1
        && (params->monotonic == 0 || params->monotonic == 1)
        && params->gap_cap >= 1
        && params->gap_cap <= DPSEL_GAP_CAP_MAX;
}
