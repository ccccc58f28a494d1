/* SPDX-License-Identifier: ISC */
/* Top-k by peeling (peel.h). */
#include "peel.h"

#include <stdlib.h>
#include <string.h>

/* Round after round over the candidates left; the mechanisms' distributions
 * do not depend on the candidates' order, so the reordering changes which
 * bits are read, not the distribution. */
static int peel_rounds(dpsel_peel_round round, const void *context, int64_t *left_scores,
                       size_t *origin, size_t n, size_t k, dpsel_rng *rng, size_t *chosen)
{
    size_t left = n;
    for (size_t r = 0; r < k; r++) {
        size_t at = 0;
        int rc = round(context, left_scores, left, rng, &at);
        if (rc != DPSEL_OK) {
            return rc;
        }
        chosen[r] = origin[at];
        left--;
        left_scores[at] = left_scores[left];
        origin[at] = origin[left];
    }
    return DPSEL_OK;
}

int dpsel_internal_peel(dpsel_peel_round round, const void *context, const int64_t *scores,
                        size_t n, size_t k, dpsel_rng *rng, size_t *indices)
{
    int64_t *left_scores = malloc(n * sizeof *left_scores);
    size_t *origin = malloc(n * sizeof *origin);
    size_t *chosen = malloc(k * sizeof *chosen);
    int rc = left_scores == NULL || origin == NULL || chosen == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    if (rc == DPSEL_OK) {
        memcpy(left_scores, scores, n * sizeof *left_scores);
        for (size_t i = 0; i < n; i++) {
            origin[i] = i;
        }
        rc = peel_rounds(round, context, left_scores, origin, n, k, rng, chosen);
    }
    if (rc == DPSEL_OK) {
        memcpy(indices, chosen, k * sizeof *indices);
    }
    free(left_scores);
    free(origin);
    free(chosen);
    return rc;
}
