/* SPDX-License-Identifier: ISC */
/* The progress line of a long command on stderr: the fraction done and an
 * estimate of the time left, on one line rewritten in place.  Shown with
 * --progress from the start, and on a terminal once the work has run a
 * second; never otherwise, so that scripts see no change.  The command's
 * work runs in `steps` equal steps (the epsilons of a curve, the
 * selections of --count), each reporting its own fraction through
 * cli_progress_report (a dpsel_progress_fn) when the library can. */
#ifndef DPSEL_CLI_PROGRESS_H
#define DPSEL_CLI_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *out;            /* stderr */
    const char *what;     /* the command, as the line names it */
    int forced;           /* --progress: shown from the start */
    int terminal;         /* out is a terminal: shown after a second */
    uint64_t start_ms;    /* when the work began (CLOCK_MONOTONIC) */
    uint64_t shown_ms;    /* when the line was last written, 0: never */
    uint64_t step, steps; /* the current step, of steps */
    uint64_t ppm;         /* the fraction last shown, in millionths */
    size_t width;         /* the length of the line last written */
} cli_progress;

/* Starts the line's clock for a command of `steps` steps (at least 1);
 * forced is --progress. */
void cli_progress_start(cli_progress *p, const char *what, int forced, uint64_t steps);

/* The cost of the work, stated before it starts: the line "dpsel WHAT:
 * TEXT" on stderr when the progress line is shown at all (--progress, or
 * a terminal), so that scripts see no change. */
void cli_progress_cost(const cli_progress *p, const char *text);

/* Step `step` (0 .. steps - 1) begins: steps before it are done. */
void cli_progress_step(cli_progress *p, uint64_t step);

/* The current step's own fraction, done of total (a dpsel_progress_fn on a
 * cli_progress): writes the line when it is due.  Returns 0: the tool
 * never cancels (Ctrl-C ends it). */
int cli_progress_report(void *context, uint64_t done, uint64_t total);

/* Before output on stdout, which may be the same terminal: a line shown
 * there is erased, to be written again on the next report. */
void cli_progress_clear(cli_progress *p);

/* The end of the work: a line that was shown ends, at 100% when done is
 * 1, where it stood otherwise (before an error message). */
void cli_progress_stop(cli_progress *p, int done);

#endif
