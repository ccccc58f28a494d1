/* SPDX-License-Identifier: ISC */
/*
 * PF over groups of alike candidates in time proportional to the groups,
 * whatever their sizes (spec/quantiles.md §7): each group's largest
 * exponential noise is one uniform, read bit by bit as a lazily refined
 * real, and compared with the leader's through MPFR enclosures in directed
 * rounding.  Outside the verified core: tested, not proved.
 */
#ifndef DPSEL_EXACT_PF_RUNS_H
#define DPSEL_EXACT_PF_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"

/* The bits of a group's uniform read for its first enclosure (each later
 * refinement doubles them), and the most bits a uniform may take: past
 * them the selection stops with DPSEL_EUNLIKELY (spec/quantiles.md §7
 * bounds its probability by groups * 2^-253). */
#define DPSEL_PF_RUNS_FIRST_BITS 8u
#define DPSEL_PF_RUNS_MAX_BITS 1024u

/* PF over count >= 1 groups, group j holding counts[j] >= 1 candidates of
 * clamped gap gaps[j] <= DPSEL_GAP_CAP_MAX, for beta = x / 2^y: *group
 * receives the group of the released candidate, with PF's probability over
 * all sum counts candidates (the member within it is the caller's uniform
 * draw).  first_bits (1 .. DPSEL_PF_RUNS_MAX_BITS) sets the bits of the
 * first enclosure only; the law does not depend on it.  Work: O(count)
 * enclosures, each of at most 2 log2(max_bits / first_bits) + 2 steps.
 * The interrupt check of rng is asked every DPSEL_INTERRUPT_EVERY groups.
 * Errors: DPSEL_ERANDOM, DPSEL_EUNLIKELY (a uniform past
 * DPSEL_PF_RUNS_MAX_BITS), DPSEL_ECANCELED, DPSEL_EINTERNAL (arguments
 * outside the above, an MPFR exception flag raised); *group untouched. */
int dpsel_exact_pf_groups(uint64_t x, unsigned y, const uint64_t *gaps, const uint64_t *counts,
                          size_t count, unsigned first_bits, dpsel_rng *rng, size_t *group);

#endif
