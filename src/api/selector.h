/* SPDX-License-Identifier: ISC */
/* The selector's private layout, shared by the selection front ends
 * (select.c for score arrays, stream.c for scores given one at a time). */
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
