/* The exponential mechanism (McSherry & Talwar 2007), by exact rejection. */
#include "core.h"

int dpsel_core_em_trial(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, int64_t best, size_t *candidate, int *kept)
{
    uint64_t drawn;
    int rc = dpsel_core_uniform(rng, (uint64_t)n, &drawn);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t gap = dpsel_core_clamped_gap(best, scores[drawn], decay->cap);
    rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, kept);
    if (rc == DPSEL_OK) {
        *candidate = (size_t)drawn;
    }
    return rc;
}

int dpsel_core_em(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *index)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    /* Trials are independent and alike; a kept candidate is r with
     * probability beta^g'_r / sum_j beta^g'_j.  The sum is at least 1 (the
     * best candidate), so all DPSEL_REJECTION_ROUNDS * n trials fail with
     * probability at most (1 - 1/n)^(128 n) < e^-128. */
    /*@ loop invariant 0 <= round <= DPSEL_REJECTION_ROUNDS;
        loop assigns round, *rng;
        loop variant DPSEL_REJECTION_ROUNDS - round;
    */
    for (unsigned round = 0; round < DPSEL_REJECTION_ROUNDS; round++) {
        /*@ loop invariant 0 <= trial <= n;
            loop assigns trial, *rng;
            loop variant n - trial;
        */
        for (size_t trial = 0; trial < n; trial++) {
            size_t candidate;
            int kept;
            int rc = dpsel_core_em_trial(rng, decay, scores, n, best, &candidate, &kept);
            if (rc != DPSEL_OK) {
                return rc;
            }
            if (kept) {
                *index = candidate;
                return DPSEL_OK;
            }
        }
    }
    return DPSEL_EUNLIKELY;
}
