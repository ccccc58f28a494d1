/* SPDX-License-Identifier: ISC */
/* Input validation of the verified core (validate.c). */
#ifndef DPSEL_CORE_VALIDATE_H
#define DPSEL_CORE_VALIDATE_H

#include "core.h"

/* 1 if s is a decimal number for epsilon: [0-9]+ ('.' [0-9]*)? or
 * '.' [0-9]+, then optionally [eE] [+-]? [0-9]{1,9}; nothing else, no more
 * than max_len characters before the NUL.  0 otherwise.  Reads at most
 * s[0 .. max_len]. */
/*@ requires bound: max_len < SIZE_MAX;
    requires text: bounded_text(s, max_len);
    assigns \nothing;
    ensures flag: zero_or_one(\result);
*/
int dpsel_core_decimal_syntax(const char *s, size_t max_len);

/* 1 if (x, y) is a valid base x / 2^y: 1 <= y <= 64 and 0 < x < 2^y. */
/*@ assigns \nothing;
    behavior valid:
      assumes valid_base(x, y);
      ensures accepted: flag_set(\result);
    behavior invalid:
      assumes !valid_base(x, y);
      ensures refused: flag_clear(\result);
    complete behaviors;
    disjoint behaviors;
*/
int dpsel_core_base_valid(uint64_t x, unsigned y);

/* 1 if every field of params is in its documented range. */
/*@ requires params: \valid_read(params);
    assigns \nothing;
    ensures flag: zero_or_one(\result);
    ensures valid: \result == 1 ==> valid_base(params->x, params->y) &&
            params->sensitivity >= 1 && 1 <= params->gap_cap <= DPSEL_GAP_CAP_MAX;
*/
int dpsel_core_params_valid(const dpsel_params *params);

#endif
