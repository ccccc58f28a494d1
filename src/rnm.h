/* SPDX-License-Identifier: ISC */
/* Report noisy max with Laplace noise (rnm.c, exact/rnm_scale.c). */
#ifndef DPSEL_RNM_H
#define DPSEL_RNM_H

#include <stdint.h>

#include "dpsel.h"

/* The Laplace scale b = c D / epsilon (c = 1 if monotonic, else 2) as W / P
 * in lowest terms, both below 2^62.  DPSEL_ERANGE (sensitivity 0, monotonic
 * not 0/1), DPSEL_EEPSILON (epsilon not a positive decimal, or W or P at
 * 2^62 or above), DPSEL_ENOMEM. */
int dpsel_exact_rnm_scale(const char *epsilon, uint64_t sensitivity, int monotonic,
                          uint64_t *w, uint64_t *p);

#endif
