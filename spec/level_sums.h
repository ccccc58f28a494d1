/* SPDX-License-Identifier: ISC */
/*
 * The levels of the exponential mechanism by levels (src/core/em_levels.c,
 * spec/mechanisms.md §12).  Definitions only.
 */
#ifndef DPSEL_SPEC_LEVEL_SUMS_H
#define DPSEL_SPEC_LEVEL_SUMS_H

/*@ // EM's levels after their count: running sums of the weights,
    // non-decreasing, the last one the total in [1, 2^63]
    predicate level_sums{L}(uint64_t *levels, integer cap) =
        \valid_read(levels + (0 .. cap)) &&
        1 <= levels[cap] <= DPSEL_LEVELS_TOTAL_MAX &&
        (\forall integer h, k; 0 <= h <= k <= cap ==> levels[h] <= levels[k]);
*/

#endif
