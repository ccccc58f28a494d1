/* SPDX-License-Identifier: ISC */
/* `dpsel pmf --top K`: the exact distribution of the k best by peeling. */
#ifndef DPSEL_CLI_TOP_COMMAND_H
#define DPSEL_CLI_TOP_COMMAND_H

#include <stdio.h>

#include "dpsel.h"
#include "input.h"
#include "options.h"
#include "status.h"

/* 0 when --top is at most the n candidates of file_name, else the problem
 * recorded in error and its status. */
int top_check(const options *o, size_t n, const char *file_name, cli_error *error);

/* Every ordered tuple of o->top candidates of cand with its probability
 * and enclosure (dpsel_top_pmf), written to out; text or JSON.  On a
 * problem records one line naming file_name in error and returns its
 * status. */
int top_pmf_print(const options *o, const dpsel_params *params, const candidates *cand,
                  const char *file_name, FILE *out, cli_error *error);

#endif
