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

/* PF visits at most this many candidates of its random order before the
 * race settles the rest (spec/mechanisms.md §11): enough for the first
 * heads to come early on typical scores, and 8 KiB of stack. */
#define PF_VISITS 1024

/* PF when the decay table allows the race: first visits, then the race. */
static int pf_by_visits(dpsel_rng *rng, const dpsel_decay *decay, const int64_t *scores,
                        size_t n, size_t *chosen)
{
    size_t visited[PF_VISITS];
    size_t visits = n / 2 < PF_VISITS ? n / 2 : PF_VISITS;
    return dpsel_core_pf_visits(rng, decay, scores, n, visited, visits, chosen);
}

/* Both modes: the checks and the core sampler.  PF runs by its first visits
 * and the race (no heap memory) when the decay table allows it, else by its
 * permutation; the hardened mode always permutes (spec/timing.md). */
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
        rc = pf_by_visits(rng, &decay, scores, n, &chosen);
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
