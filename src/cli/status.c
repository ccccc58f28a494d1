/* Exit statuses of the dpsel tool (status.h). */
#include "status.h"

#include <errno.h>

#include "dpsel.h"

int exit_status_of_error(int dpsel_code)
{
    switch (dpsel_code) {
    case DPSEL_ENULL:
    case DPSEL_ENOMEM:
    case DPSEL_ERANDOM:
    case DPSEL_EUNLIKELY:
    case DPSEL_EINEXACT:
    case DPSEL_EINTERNAL:
        return EXIT_CANNOT_COMPLETE;
    default:
        return EXIT_BAD_INPUT;
    }
}

int exit_status_of_errno(int error_number)
{
    switch (error_number) {
    case ENOMEM:
    case EIO:
    case ENFILE:
    case EMFILE:
    case ENOSPC:
    case EDQUOT:
        return EXIT_CANNOT_COMPLETE;
    default:
        return EXIT_BAD_INPUT;
    }
}
