/* SPDX-License-Identifier: ISC */
/* What a binding checks at load: the library's version and the sizes of
 * the structures it mirrors (dpsel_version, dpsel_sizeof). */
#include <criterion/criterion.h>

#include "dpsel.h"

Test(version, the_library_reports_its_header_version)
{
    cr_expect_str_eq(dpsel_version(), DPSEL_VERSION);
}

Test(version, every_mirrored_structure_has_its_size)
{
    cr_expect_eq(dpsel_sizeof("dpsel_params"), sizeof(dpsel_params));
    cr_expect_eq(dpsel_sizeof("dpsel_rng_state_"), sizeof(dpsel_rng_state_));
    cr_expect_eq(dpsel_sizeof("dpsel_rng"), sizeof(dpsel_rng));
    cr_expect_eq(dpsel_sizeof("dpsel_pf_stream"), sizeof(dpsel_pf_stream));
    cr_expect_eq(dpsel_sizeof("dpsel_grid"), sizeof(dpsel_grid));
    cr_expect_eq(dpsel_sizeof("dpsel_audit_result"), sizeof(dpsel_audit_result));
    cr_expect_eq(dpsel_sizeof("dpsel_account"), sizeof(dpsel_account));
    cr_expect_eq(dpsel_sizeof("dpsel_group_account"), sizeof(dpsel_group_account));
}

Test(version, other_names_have_no_size)
{
    cr_expect_eq(dpsel_sizeof(NULL), 0);
    cr_expect_eq(dpsel_sizeof(""), 0);
    cr_expect_eq(dpsel_sizeof("dpsel_selector"), 0);  /* opaque: the library allocates it */
    cr_expect_eq(dpsel_sizeof("dpsel_rng "), 0);
    cr_expect_eq(dpsel_sizeof("DPSEL_RNG"), 0);
}
