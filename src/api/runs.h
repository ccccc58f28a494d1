/* SPDX-License-Identifier: ISC */
/* EM and PF over runs of equal scores: run j stands for lengths[j]
 * candidates of score scores[j], and the selection is the mechanism's over
 * all of them (the quantile's grid points, a partial selection's levels).
 * Shared by quantile.c and partial.c. */
#ifndef DPSEL_RUNS_H
#define DPSEL_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* The largest number of candidates EM over runs takes (its trial bound,
 * spec/quantiles.md §4). */
#define DPSEL_RUNS_EM_MAX DPSEL_QUANTILE_EM_GRID_MAX

/* Totals up to this are selected over their candidates expanded, one
 * score each (32 KiB at most), by dpsel_select: PF always, EM when the
 * total is at most the gap cap.  There the core's samplers beat the race
 * over levels by 10 to 100 times (a 100-candidate finish 3.9 us against
 * 67 us; 4096 candidates 39 us against 358 us), and they beat EM by
 * levels when its cap + 1 words outnumber the candidates. */
#define DPSEL_RUNS_EXPAND_MAX 4096

/* One selection over the runs: *run and *offset (below lengths[*run]) name
 * the released candidate, with the mechanism's distribution over the
 * total = sum lengths candidates.  A small total (DPSEL_RUNS_EXPAND_MAX)
 * is expanded and selected by dpsel_select.  Otherwise EM draws by levels (a few passes over
 * the runs); PF counts the candidates of each clamped gap, races those
 * levels (src/exact/pf_runs.c: O(levels) enclosures, whatever the total)
 * and draws a uniform member of the winner, found by a pass over the runs
 * (spec/quantiles.md §7; 16 (C + 1) bytes of heap).  PF's passes ask rng's
 * interrupt check every DPSEL_INTERRUPT_EVERY runs.  Errors: DPSEL_ERANGE
 * (an EM total above DPSEL_RUNS_EM_MAX), DPSEL_ENOMEM, DPSEL_ERANDOM,
 * DPSEL_EUNLIKELY, DPSEL_ECANCELED, DPSEL_EINTERNAL (lengths that do not
 * add up to total). */
int dpsel_internal_runs_select(const dpsel_selector *selector, dpsel_mechanism mechanism,
                               const int64_t *scores, const uint64_t *lengths, size_t count,
                               uint64_t total, dpsel_rng *rng, size_t *run, uint64_t *offset);

#endif
