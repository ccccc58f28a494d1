/* SPDX-License-Identifier: ISC */
/* `dpsel quantile`: private quantiles of raw values on a public grid. */
#ifndef DPSEL_CLI_QUANTILE_COMMAND_H
#define DPSEL_CLI_QUANTILE_COMMAND_H

#include <stdio.h>

#include "options.h"
#include "status.h"

/* Reads o->file (values, one per line), and writes to out the released
 * value of each quantile of --quantile (--count of each), or with --pmf
 * their exact distributions over the runs; the epsilon of each quantile and
 * their total go to stderr when more than one value is released.  On a
 * problem records one line in error and returns its exit status. */
int quantile_print(const options *o, FILE *out, cli_error *error);

#endif
