/* SPDX-License-Identifier: ISC */
/*
 * MPFR's global state belongs to the host: a program that links dpsel may
 * have set MPFR's exponent range (emulating doubles with emin -1073 is
 * common) and may read MPFR's flags.  Every public function that computes
 * with MPFR does so between dpsel_exact_mpfr_enter and
 * dpsel_exact_mpfr_leave: enter saves the host's exponent range and flags
 * and sets the widest range MPFR allows, leave restores both exactly.
 * (MPFR's state is per thread when MPFR is built thread-safe, as Debian's
 * is; it is not shared otherwise.)  MPFR's constant caches are left to the
 * host: dpsel never frees them.
 */
#ifndef DPSEL_MPFR_ENV_H
#define DPSEL_MPFR_ENV_H

#include <mpfr.h>

typedef struct {
    mpfr_exp_t emin, emax;
    mpfr_flags_t flags;
} dpsel_mpfr_env;

void dpsel_exact_mpfr_enter(dpsel_mpfr_env *host);
void dpsel_exact_mpfr_leave(const dpsel_mpfr_env *host);

#endif
