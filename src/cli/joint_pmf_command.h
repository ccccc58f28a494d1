/* SPDX-License-Identifier: ISC */
/* `dpsel quantile --joint --pmf`: each quantile's marginal of the joint
 * release (joint_pmf_command.c). */
#ifndef DPSEL_CLI_JOINT_PMF_COMMAND_H
#define DPSEL_CLI_JOINT_PMF_COMMAND_H

#include <stdio.h>

#include "dpsel.h"
#include "options.h"
#include "status.h"

/* What the joint release is: the grid and its values, the quantiles as
 * given (texts, in the order of --quantile) and as fractions (a[i] / b[i]),
 * and the parameters of the one release. */
typedef struct {
    const dpsel_grid *grid;
    const int64_t *points;
    size_t m;                  /* values */
    const char *const *texts;
    const uint64_t *a, *b;
    size_t count;              /* quantiles */
    const dpsel_params *params;
} joint_release;

/* The marginals of the release into *pmf, with the progress line of
 * --progress: a library code (dpsel_quantiles_joint_pmf_new's). */
int joint_pmf_make(const options *o, const joint_release *r, dpsel_joint_pmf **pmf);

/* Writes, for each quantile, the table (or JSON line) of `quantile --pmf`:
 * a header naming the joint release, its one epsilon and the quantile's
 * expected rank error, then a row per run.  0, or the status of the
 * problem, recorded in e. */
int joint_pmf_print(const options *o, const joint_release *r, const dpsel_joint_pmf *pmf,
                    FILE *out, cli_error *e);

#endif
