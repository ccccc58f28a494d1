/* SPDX-License-Identifier: ISC */
/* `dpsel audit`: the privacy loss between two neighbouring score files. */
#ifndef DPSEL_CLI_AUDIT_COMMAND_H
#define DPSEL_CLI_AUDIT_COMMAND_H

#include <stddef.h>
#include <stdio.h>

#include "input.h"
#include "options.h"
#include "status.h"

/* Exit statuses of a completed audit (2 is bad input, as everywhere). */
#define AUDIT_HOLDS 0
#define AUDIT_BROKEN 1
#define AUDIT_UNDECIDED 3

/* Audits o's mechanism with params on the candidates of FILE_A (a) and
 * FILE_B (b, matched to a by label), named name_a and name_b in messages;
 * writes the report to out (text, or JSON with --json) and returns
 * AUDIT_HOLDS, AUDIT_BROKEN or AUDIT_UNDECIDED.  A warning goes to stderr
 * when the files are not neighbours for the parameters.  With --task,
 * a's and b's candidates hold the histograms' counts (task_scores checked
 * them and left them): the scores are built here, once b's rows are in a's
 * order.  On a problem records one line in error and returns its exit
 * status, with nothing written to out: EXIT_BAD_INPUT when the labels
 * differ, else the status of the library's code (exit_status_of_error). */
int audit_print(const options *o, const dpsel_params *params, const candidates *a,
                const char *name_a, const candidates *b, const char *name_b, FILE *out,
                cli_error *error);

#endif
