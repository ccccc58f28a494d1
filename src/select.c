/* Selectors: the exact decay table, and selections through the core. */
#include <stdlib.h>

#include "selector.h"

int dpsel_selector_new(dpsel_selector **out, const dpsel_params *params)
{
    if (out == NULL || params == NULL) {
        return DPSEL_ENULL;
    }
    if (!dpsel_core_params_valid(params)) {
        return DPSEL_ERANGE;
    }
    dpsel_selector *selector = calloc(1, sizeof *selector);
    if (selector == NULL) {
        return DPSEL_ENOMEM;
    }
    selector->params = *params;
    int rc = dpsel_decay_table_build(&selector->table, params->x, params->y,
                                     params->gap_cap);
    if (rc != DPSEL_OK) {
        free(selector);
        return rc;
    }
    *out = selector;
    return DPSEL_OK;
}

void dpsel_selector_free(dpsel_selector *selector)
{
    if (selector != NULL) {
        dpsel_decay_table_free(&selector->table);
        free(selector);
    }
}

/* Both modes: the checks and the core sampler.  PF runs as the race (no
 * scratch memory) when the decay table allows it, else by its permutation;
 * the hardened mode always permutes (spec/timing.md). */
static int select_in_mode(const dpsel_selector *selector, dpsel_mechanism mechanism,
                          const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index,
                          int hardened)
{
    if (selector == NULL || scores == NULL || rng == NULL || index == NULL) {
        return DPSEL_ENULL;
    }
    if (n == 0) {
        return DPSEL_EEMPTY;
    }
    if (n > DPSEL_MAX_CANDIDATES || (mechanism != DPSEL_PF && mechanism != DPSEL_EM)) {
        return DPSEL_ERANGE;
    }
    dpsel_decay decay = dpsel_selector_decay(selector);
    size_t chosen = 0;
    int rc;
    if (mechanism == DPSEL_EM) {
        rc = hardened ? dpsel_core_em_hardened(rng, &decay, scores, n, &chosen)
                      : dpsel_core_em(rng, &decay, scores, n, &chosen);
    } else if (!hardened && dpsel_core_race_applies(&decay)) {
        rc = dpsel_core_pf_race(rng, &decay, scores, n, &chosen);
    } else {
        size_t *scratch = calloc(n, sizeof *scratch);
        if (scratch == NULL) {
            return DPSEL_ENOMEM;
        }
        rc = hardened ? dpsel_core_pf_hardened(rng, &decay, scores, n, scratch, &chosen)
                      : dpsel_core_pf(rng, &decay, scores, n, scratch, &chosen);
        free(scratch);
    }
    if (rc == DPSEL_OK) {
        *index = chosen;
    }
    return rc;
}

int dpsel_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                 const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index)
{
    return select_in_mode(selector, mechanism, scores, n, rng, index, 0);
}

int dpsel_select_hardened(const dpsel_selector *selector, dpsel_mechanism mechanism,
                          const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index)
{
    return select_in_mode(selector, mechanism, scores, n, rng, index, 1);
}
