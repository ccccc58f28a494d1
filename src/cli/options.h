/* SPDX-License-Identifier: ISC */
/* Command-line options of the dpsel tool. */
#ifndef DPSEL_CLI_OPTIONS_H
#define DPSEL_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "status.h"

typedef enum {
    COMMAND_SELECT, COMMAND_PMF, COMMAND_PARAMS, COMMAND_CURVE, COMMAND_AUDIT, COMMAND_QUANTILE,
    COMMAND_ACCOUNT, COMMAND_COUNT
} command;

/* The commands, as messages list them. */
#define COMMAND_LIST "select, pmf, params, curve, audit, quantile, account"

typedef struct {
    command cmd;
    dpsel_mechanism mechanism;
    const char *epsilon;        /* --epsilon, or NULL */
    uint64_t base_x;            /* --base X/2^Y when base_given */
    unsigned base_y;
    int base_given;
    uint64_t sensitivity;       /* in score units */
    const char *sensitivity_text; /* --sensitivity as given, or NULL (1) */
    const char *resolution;     /* --resolution as given, or NULL */
    const char *unit;           /* decimal scores in this unit (unit_text), or
                                 * NULL: integer scores (spec/quantiles.md §5) */
    char unit_text[DPSEL_DECIMAL_TEXT_MAX + 1];
    int monotonic;
    uint64_t gap_cap;           /* 0: the default */
    uint64_t count;
    int hardened;               /* select: --hardened, dpsel_select_hardened */
    unsigned char seed[32];
    size_t seed_size;           /* 0: no --seed, use the OS source */
    int exact;
    int json;
    int progress;               /* --progress: the progress line even off a terminal */
    const char *file;           /* NULL: standard input */
    const char *file_b;         /* audit: FILE_B (FILE is FILE_A) */
    int help;                   /* --help, or the help command */
    int help_overview;          /* help for the tool rather than for cmd */
    int version;
    int task_given;             /* --task: scores from a histogram */
    dpsel_task task;
    const char *epsilons;       /* curve: --epsilons as given (default CURVE_EPSILONS) */
    double epsilons_low;        /* the range form LOW:HIGH:COUNT ... */
    double epsilons_high;
    unsigned epsilons_count;    /* ... or 0 for the list form E1,E2,... */
    const char *target;         /* curve: --target ERR as given, or NULL */
    double target_error;
    const char *quantiles;      /* quantile: --quantile Q1,Q2,... as given */
    const char *lower;          /* quantile: --lower A, --upper B as given */
    const char *upper;
    int pmf;                    /* quantile: --pmf, the distribution instead */
    int joint;                  /* quantile: --joint, one JointExp release of all */
    uint64_t top;               /* select, pmf: --top K (1: one choice) */
    const char *delta;          /* select, quantile, account: --delta, or NULL */
    int nonadaptive;            /* account: --nonadaptive */
    uint64_t group;             /* account: --group K, or 0 for none */
    char **releases;            /* account: the RELEASE arguments (in argv) */
    size_t release_count;
} options;

/* The epsilons of `dpsel curve` without --epsilons. */
#define CURVE_EPSILONS "0.01:10:25"

/* The most epsilons one curve computes. */
#define CURVE_EPSILONS_MAX 1000

/* Parses argv; on a problem records one line in error (EXIT_BAD_INPUT)
 * and returns that status. */
int options_parse(int argc, char **argv, options *out, cli_error *error);

/* The command's name ("select"). */
const char *command_name(command cmd);

/* The column where help's descriptions of options start. */
#define HELP_COLUMN 24

/* The options cmd takes, one per line with what it does ("options:" and
 * the list), as help prints them. */
void options_print_help(FILE *out, command cmd);

#endif
