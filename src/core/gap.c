/* Score arithmetic of the verified core: best score, gaps, bit lengths. */
#include "core.h"

size_t dpsel_core_argmax(const int64_t *scores, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        if (scores[i] > scores[best]) {
            best = i;
        }
    }
    return best;
}

uint64_t dpsel_core_clamped_gap(int64_t best, int64_t score, uint64_t cap)
{
    /* best - score lies in [0, 2^64 - 1], which int64 cannot hold when best
     * is non-negative and score negative: there it is computed as
     * best + (-(score + 1)) + 1, each term and sum in range, no wrap-around. */
    uint64_t gap;
    if (best >= 0 && score < 0) {
        gap = (uint64_t)best + (uint64_t)(-(score + 1)) + 1u;
    } else {
        gap = (uint64_t)(best - score);
    }
    return gap < cap ? gap : cap;
}

unsigned dpsel_core_bitlen(uint64_t v)
{
    unsigned bits = 0;
    while (v != 0) {
        v >>= 1;
        bits++;
    }
    return bits;
}
