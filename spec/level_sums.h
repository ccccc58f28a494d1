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

    // n candidates' weights, each below 2^envelope, add up to a total that fits
    predicate levels_fit(integer n, integer envelope) =
        n * pow2(envelope) <= DPSEL_LEVELS_TOTAL_MAX;
    // the random bits a hardened trial draws at once: at most 63, so that
    // 2^width fits a uint64_t
    predicate draw_width(integer width) = width <= 63;
    // the levels' counts or sums to write: cap + 1 words
    predicate levels_writable{L}(uint64_t *levels, dpsel_decay *d) =
        \valid(levels + (0 .. d->cap));
    // on success, the levels hold their running sums
    predicate sums_after{L}(integer r, uint64_t *levels, integer cap) =
        r == DPSEL_OK ==> level_sums(levels, cap);
    // on success, a level at most cap
    predicate level_after(integer r, integer level, integer cap) =
        r == DPSEL_OK ==> level <= cap;
    // a trial's outcome: on success, a level at most cap and a kept flag
    predicate level_trial_after(integer r, integer level, integer cap, integer kept) =
        r == DPSEL_OK ==> level <= cap && zero_or_one(kept);
*/

#endif
