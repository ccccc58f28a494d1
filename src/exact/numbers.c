/* SPDX-License-Identifier: ISC */
/* Arrays of MPFR numbers (exact.h), which the enclosures, the quadrature
 * and the pmfs allocate: a file of their own, so that none of those
 * depends on another for them. */
#include <stdlib.h>

#include "exact.h"

mpfr_t *dpsel_exact_numbers_new(size_t count, mpfr_prec_t prec)
{
    mpfr_t *a = malloc(count * sizeof *a);
    if (a != NULL) {
        for (size_t i = 0; i < count; i++) {
            mpfr_init2(a[i], prec);
        }
    }
    return a;
}

void dpsel_exact_numbers_free(mpfr_t *a, size_t count)
{
    if (a != NULL) {
        for (size_t i = 0; i < count; i++) {
            mpfr_clear(a[i]);
        }
        free(a);
    }
}
