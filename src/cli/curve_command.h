/* SPDX-License-Identifier: ISC */
/* `dpsel curve` and the histogram tasks of the dpsel tool. */
#ifndef DPSEL_CLI_CURVE_COMMAND_H
#define DPSEL_CLI_CURVE_COMMAND_H

#include <stddef.h>
#include <stdio.h>

#include "input.h"
#include "options.h"
#include "status.h"

/* Replaces the counts of a histogram (`bin,count`) by the scores of --task
 * (for audit only checks them: audit_print builds the scores).
 * On a problem (a negative count, counts adding up past INT64_MAX) records
 * one line naming file_name (and the line) in error, with EXIT_BAD_INPUT,
 * and returns that status. */
int task_scores(const options *o, candidates *cand, const char *file_name, cli_error *error);

/* `dpsel curve`: the expected errors of PF and EM over o's epsilons, or with
 * --target the least epsilon reaching that error, written to out (CSV, or
 * JSON with --json).  On a problem records one line in error, with
 * EXIT_BAD_INPUT, and returns that status. */
int curve_print(const options *o, const candidates *cand, const char *file_name,
                FILE *out, cli_error *error);

#endif
