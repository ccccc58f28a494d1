/* Permute-and-flip (McKenna & Sheldon 2020). */
#include "core.h"

int dpsel_core_pf(dpsel_rng *rng, const dpsel_decay *decay,
                  const int64_t *scores, size_t n, size_t *scratch,
                  size_t *index)
{
    int64_t best = scores[dpsel_core_argmax(scores, n)];
    for (size_t i = 0; i < n; i++) {
        scratch[i] = i;
    }
    /* Step i of a Fisher-Yates shuffle fixes position i; the candidates are
     * visited in shuffled order as the shuffle is drawn. */
    for (size_t i = 0; i < n; i++) {
        uint64_t offset;
        int rc = dpsel_core_uniform(rng, (uint64_t)(n - i), &offset);
        if (rc != DPSEL_OK) {
            return rc;
        }
        size_t j = i + (size_t)offset;
        size_t candidate = scratch[j];
        scratch[j] = scratch[i];
        scratch[i] = candidate;

        uint64_t gap = dpsel_core_clamped_gap(best, scores[candidate], decay->cap);
        int heads;
        rc = dpsel_core_coin_power(rng, decay->powers, decay->npowers, gap, &heads);
        if (rc != DPSEL_OK) {
            return rc;
        }
        if (heads) {
            *index = candidate;
            return DPSEL_OK;
        }
    }
    /* Unreachable: a best candidate has gap 0, and its coin is certain. */
    return DPSEL_EINTERNAL;
}
