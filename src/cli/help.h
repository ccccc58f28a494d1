/* SPDX-License-Identifier: ISC */
/* The dpsel tool's help: the overview (dpsel --help, dpsel help), each
 * command's own (dpsel COMMAND --help, dpsel help COMMAND), the short usage
 * of a bare dpsel, and the version. */
#ifndef DPSEL_CLI_HELP_H
#define DPSEL_CLI_HELP_H

#include <stdio.h>

#include "options.h"

/* What o asks for: the version, the overview or cmd's help. */
void help_print(FILE *out, const options *o);

/* A bare `dpsel`: the usage line and the commands, on err.  Returns
 * EXIT_BAD_INPUT. */
int help_print_short_usage(FILE *err);

#endif
