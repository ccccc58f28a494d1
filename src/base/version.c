/* SPDX-License-Identifier: ISC */
/* What a program or binding that loads the shared library checks first:
 * the version it was built as, and the sizes of the structures a caller
 * allocates (a mirror of another layout would corrupt memory). */
#include <string.h>

#include "dpsel.h"

const char *dpsel_version(void)
{
    return DPSEL_VERSION;
}

#define STRUCT_SIZE(type) { #type, sizeof(type) }

size_t dpsel_sizeof(const char *type)
{
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {
        STRUCT_SIZE(dpsel_params),
        STRUCT_SIZE(dpsel_rng_state_),
        STRUCT_SIZE(dpsel_rng),
        STRUCT_SIZE(dpsel_pf_stream),
        STRUCT_SIZE(dpsel_grid),
        STRUCT_SIZE(dpsel_audit_result),
        STRUCT_SIZE(dpsel_account),
        STRUCT_SIZE(dpsel_group_account),
    };
    if (type == NULL) {
        return 0;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (strcmp(type, sizes[i].name) == 0) {
            return sizes[i].size;
        }
    }
    return 0;
}
