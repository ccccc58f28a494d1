/* SPDX-License-Identifier: ISC */
/* The caller's interrupt check (dpsel_rng_set_interrupt), as the long loops
 * outside the verified core ask it.  The core's samplers never call it: their
 * loops are bounded and proved; the loops that grow with the data (runs,
 * levels, candidates counted in a partial state) live around them. */
#ifndef DPSEL_INTERRUPT_H
#define DPSEL_INTERRUPT_H

#include <stdint.h>

#include "dpsel.h"

/* How many steps of a loop go by between two checks: a step is at most a
 * few microseconds, so a check every 4096 steps answers a cancel within a
 * few milliseconds. */
#define DPSEL_INTERRUPT_EVERY 4096u

/* DPSEL_ECANCELED when the source's check asks to stop, else DPSEL_OK (also
 * when no check is set, and for a NULL source: work that may run without
 * one, such as dpsel_quantile_runs_new).  done and total are passed through
 * to the check. */
int dpsel_internal_interrupted(const dpsel_rng *rng, uint64_t done, uint64_t total);

/* The same, asked only when done is a multiple of DPSEL_INTERRUPT_EVERY:
 * the form for a loop's every step. */
static inline int dpsel_internal_interrupted_every(const dpsel_rng *rng, uint64_t done,
                                                   uint64_t total)
{
    return done % DPSEL_INTERRUPT_EVERY == 0 ? dpsel_internal_interrupted(rng, done, total)
                                             : DPSEL_OK;
}

#endif
