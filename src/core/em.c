/* The exponential mechanism (McSherry & Talwar 2007), by exact rejection. */
#include "core.h"

int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    /* A trial keeps r with probability (1/n) beta^g'_r, so a kept candidate
     * is r with probability beta^g'_r / sum_j beta^g'_j.  The sum is at least
     * 1 (the best candidate), so all DPSEL_REJECTION_ROUNDS * n trials fail
     * with probability at most (1 - 1/n)^(128 n) < e^-128. */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        for (size_t trial = 0; trial < n; trial++) {
            uint64_t candidate;
            int rc = dpsel_core_uniform(rng, (uint64_t)n, &candidate);
            if (rc != DPSEL_OK) {
                return rc;
            }
            uint64_t gap = dpsel_core_clamped_gap(best, scores[candidate], decay->cap);
            int heads;
            rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, &heads);
            if (rc != DPSEL_OK) {
                return rc;
            }
            if (heads) {
                *index = (size_t)candidate;
                return DPSEL_OK;
            }
        }
    }
    return DPSEL_EUNLIKELY;
}
