/* SPDX-License-Identifier: ISC */
/* The selector's private layout, shared by the front ends that select with
 * one: select.c (score arrays), stream.c (scores given one at a time),
 * partial.c (partial selections' finish), runs.c (runs of equal scores) and
 * quantile.c. */
#ifndef DPSEL_SELECTOR_H
#define DPSEL_SELECTOR_H

#include "../exact/exact.h"

struct dpsel_selector {
    dpsel_params params;
    dpsel_decay_table table;
    dpsel_thinning_table thinning;
    uint64_t level_trials;  /* the hardened EM by levels' trials (dpsel_exact_level_trials) */
};

/* The view of the selector's decay table that the core samplers take. */
static inline dpsel_decay dpsel_selector_decay(const dpsel_selector *selector)
{
    dpsel_decay decay = { selector->table.powers, selector->table.npowers,
                          selector->params.gap_cap };
    return decay;
}

#endif
