/* `dpsel curve` and the histogram tasks of the dpsel tool. */
#ifndef DPSEL_CLI_CURVE_H
#define DPSEL_CLI_CURVE_H

#include <stddef.h>
#include <stdio.h>

#include "input.h"
#include "options.h"

/* Replaces the counts of a histogram (`bin,count`) by the scores of --task
 * (for audit only checks them: audit_print builds the scores).
 * On a problem (a negative count, counts adding up past INT64_MAX) writes
 * one line naming file_name (and the line) into message and returns -1. */
int task_scores(const options *o, candidates *cand, const char *file_name,
                char *message, size_t message_size);

/* `dpsel curve`: the expected errors of PF and EM over o's epsilons, or with
 * --target the least epsilon reaching that error, written to out (CSV, or
 * JSON with --json).  On a problem writes one line into message and returns
 * -1. */
int curve_print(const options *o, const candidates *cand, const char *file_name,
                FILE *out, char *message, size_t message_size);

#endif
