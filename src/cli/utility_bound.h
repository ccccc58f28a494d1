/* SPDX-License-Identifier: ISC */
/*
 * The utility theorem beside pmf's exact distribution (spec/mechanisms.md
 * §15): for t = 1, 2, 5, EM's bound
 * B_t = (ln(n / |OPT|) + t) / ln(1/beta) score units, the rigorous
 * enclosure of P(error >= B_t) from the pmf's, and e^-t, which the theorem
 * says that probability is at most for EM.
 */
#ifndef DPSEL_CLI_UTILITY_BOUND_H
#define DPSEL_CLI_UTILITY_BOUND_H

#include <stdio.h>

#include "input.h"
#include "options.h"
#include "shared.h"
#include "status.h"

#define UTILITY_TAILS 3         /* t = 1, 2, 5 */
#define UTILITY_TEXT 48         /* "%.17Rg" of a finite number, and the NUL */

typedef struct {
    unsigned t;
    char bound[UTILITY_TEXT];   /* B_t in the scores' unit, rounded up */
    char lower[UTILITY_TEXT];   /* P(error >= B_t), rounded down */
    char upper[UTILITY_TEXT];   /* ... and up */
    char theorem[UTILITY_TEXT]; /* e^-t, rounded up */
} utility_tail;

typedef struct {
    size_t candidates;          /* n */
    size_t optimal;             /* |OPT|: the candidates of the highest score */
    utility_tail tail[UTILITY_TAILS];
} utility_tails;

/* The tails of the pmf whose candidates' probabilities have the
 * enclosures text[0 .. n) (pmf_text_make's), for the candidates' scores
 * and params: 0, or a cli_fail status. */
int utility_tails_make(const options *o, const dpsel_params *params, const candidates *cand,
                       const pmf_text *text, utility_tails *tails, cli_error *e);

/* The tails as pmf's comment lines ('#'), or as the JSON member
 * "utility_bound" (after a comma). */
void utility_tails_print(FILE *out, int json, dpsel_mechanism mechanism,
                         const utility_tails *tails);

#endif
