/* SPDX-License-Identifier: ISC */
/* Top-k by peeling (spec/accounting.md §1), for any mechanism whose
 * distribution does not depend on the candidates' order: select.c's PF and
 * EM (dpsel_select_top), noisy_max.c's report noisy max
 * (dpsel_rnm_select_top). */
#ifndef DPSEL_PEEL_H
#define DPSEL_PEEL_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* One round: the position *at among scores[0 .. n - 1] of the candidate the
 * mechanism chooses, or an error. */
typedef int (*dpsel_peel_round)(const void *context, const int64_t *scores, size_t n,
                                dpsel_rng *rng, size_t *at);

/* k rounds (2 <= k <= n), each over the candidates not chosen yet, so that
 * indices[0 .. k - 1] receives k distinct candidates in the order chosen.
 * The chosen one leaves by taking the last one's place, its original
 * position kept beside it.  The first error of a round, or DPSEL_ENOMEM;
 * indices is written only on success. */
int dpsel_internal_peel(dpsel_peel_round round, const void *context, const int64_t *scores,
                        size_t n, size_t k, dpsel_rng *rng, size_t *indices);

#endif
