/* SPDX-License-Identifier: ISC */
/* The host's MPFR state saved and restored around dpsel's work (mpfr_env.h). */
#include "mpfr_env.h"

void dpsel_exact_mpfr_enter(dpsel_mpfr_env *host)
{
    host->emin = mpfr_get_emin();
    host->emax = mpfr_get_emax();
    host->flags = mpfr_flags_save();
    /* the extreme values are always accepted: these cannot fail */
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}

void dpsel_exact_mpfr_leave(const dpsel_mpfr_env *host)
{
    /* the host's own range, valid when it was saved */
    mpfr_set_emin(host->emin);
    mpfr_set_emax(host->emax);
    mpfr_flags_restore(host->flags, MPFR_FLAGS_ALL);
}
