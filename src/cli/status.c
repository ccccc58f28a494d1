/* SPDX-License-Identifier: ISC */
/* Exit statuses of the dpsel tool and its one error path (status.h). */
#include "status.h"

#include <errno.h>
#include <stdio.h>

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

int cli_vfail_at(cli_error *e, int status, const char *name, size_t line, const char *format,
                 va_list args)
{
    int used = name == NULL ? 0
             : line == 0 ? snprintf(e->message, sizeof e->message, "%s: ", name)
             : snprintf(e->message, sizeof e->message, "%s:%zu: ", name, line);
    if (used >= 0 && (size_t)used < sizeof e->message) {
        vsnprintf(e->message + used, sizeof e->message - (size_t)used, format, args);
    }
    e->status = status;
    return status;
}

int cli_fail_at(cli_error *e, int status, const char *name, size_t line, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    cli_vfail_at(e, status, name, line, format, args);
    va_end(args);
    return status;
}

int cli_fail(cli_error *e, int status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    cli_vfail_at(e, status, NULL, 0, format, args);
    va_end(args);
    return status;
}

int cli_fail_library(cli_error *e, const char *what, int code)
{
    return cli_fail(e, exit_status_of_error(code), "%s: %s", what, dpsel_strerror(code));
}

int cli_report(const cli_error *e)
{
    fprintf(stderr, "dpsel: %s\n", e->message);
    return e->status;
}
