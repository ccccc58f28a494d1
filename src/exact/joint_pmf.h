/* SPDX-License-Identifier: ISC */
/* JointExp's exact marginals (joint_pmf.c): what the tests and the
 * library's other files see beyond the public API. */
#ifndef DPSEL_EXACT_JOINT_PMF_H
#define DPSEL_EXACT_JOINT_PMF_H

#include <mpfr.h>
#include <stddef.h>
#include <stdint.h>

#include "dpsel.h"
#include "joint.h"

/* The marginals of the problem (dpsel_quantiles_joint_pmf_new once the
 * arguments are checked and the values sorted), with its progress report
 * and cancel.  DPSEL_ENOMEM, DPSEL_ECANCELED, DPSEL_EINTERNAL; *out is
 * written only on success. */
int dpsel_exact_joint_pmf_new(dpsel_joint_pmf **out, const dpsel_joint_problem *jp,
                              dpsel_progress_fn progress, void *context);

/* The bounds the pmf holds on quantile i's value v (i < m): run v's
 * probability for v < runs, the expected rank error for v == runs; lo and
 * hi (initialised) are set to the pmf's precision. */
void dpsel_exact_joint_pmf_bounds(const dpsel_joint_pmf *pmf, size_t i, size_t v, mpfr_t lo,
                                  mpfr_t hi);

#endif
