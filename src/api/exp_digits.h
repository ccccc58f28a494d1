/* SPDX-License-Identifier: ISC */
/* Report noisy max's test of an Exp(1) variable's integer part against a
 * bound (noisy_max.c, spec/mechanisms.md §14): P(K >= k) = e^-k, decided
 * exactly by comparing a uniform with e^-k's binary digits
 * (dpsel_core_uniform_below). */
#ifndef DPSEL_EXP_DIGITS_H
#define DPSEL_EXP_DIGITS_H

#include <stdint.h>

#include "../core/rnm.h"

/* dpsel_internal_exp_digits[k - 1]: floor(e^-k 2^256) as 4 words, the most
 * significant first, k = 1 .. DPSEL_EXP_WHOLE_MAX. */
extern const uint64_t dpsel_internal_exp_digits[DPSEL_EXP_WHOLE_MAX][DPSEL_URAND_WORDS];

#endif
