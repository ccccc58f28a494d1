/* SPDX-License-Identifier: ISC */
/* `dpsel account`, and the accounting that select and quantile state on
 * stderr (spec/accounting.md). */
#ifndef DPSEL_CLI_ACCOUNT_COMMAND_H
#define DPSEL_CLI_ACCOUNT_COMMAND_H

#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "options.h"
#include "status.h"

/* `dpsel account RELEASE...` (RELEASE em:EPS[xN], pf:EPS[xN] or rnm:EPS[xN]): every
 * figure of the accountant, at --delta if given, written to out.  On a
 * problem records one line in error (EXIT_BAD_INPUT for bad input) and
 * returns its status. */
int account_print(const options *o, FILE *out, cli_error *error);

/* One line on stderr, "dpsel: WHAT; together ...": the privacy of `count`
 * releases of o->mechanism with each of params[0 .. k - 1], composed as
 * said: the pure epsilon and, with o->delta, the best epsilon at that
 * delta and its method.  0, or the status of the problem recorded in
 * error. */
int account_state(const options *o, const dpsel_params *params, size_t k, uint64_t count,
                  dpsel_composition composition, const char *what, cli_error *error);

/* account_state for count releases of o->mechanism at the decimal epsilon,
 * realised exactly (report noisy max). */
int account_state_decimal(const options *o, const char *epsilon, uint64_t count,
                          dpsel_composition composition, const char *what, cli_error *error);

#endif
