/* SPDX-License-Identifier: ISC */
/* The dpsel tool's help (help.h).  The options of each command come from
 * the parser's own table (options_print_help), so that help lists exactly
 * what the command accepts; this file holds what the table does not: each
 * command's usage, purpose and examples. */
#include "help.h"

#include <string.h>

#include "dpsel.h"
#include "status.h"

typedef struct {
    const char *usage;     /* the arguments after the command's name */
    const char *summary;   /* one line, for the lists of commands */
    const char *about;     /* a few lines */
    const char *examples;  /* two or three commands, one per line */
} command_help;

static const command_help helps[COMMAND_COUNT] = {
    [COMMAND_SELECT] = {
        "[OPTIONS] [FILE]",
        "one private choice (or --count N, or the --top K)",
        "Chooses a candidate of FILE with permute-and-flip (default), the\n"
        "exponential mechanism or report noisy max (rnm: --epsilon realised\n"
        "exactly), at the privacy of --epsilon or --base, and prints its label.\n"
        "The realised epsilon never exceeds the request.\n",
        "dpsel select --epsilon 1 --monotonic examples/poll.csv\n"
        "dpsel select --epsilon 0.5 --mechanism em --count 3 --delta 1e-6 \\\n"
        "    examples/poll.csv\n"
        "dpsel select --epsilon 1 --task mode examples/hepth.csv\n",
    },
    [COMMAND_PMF] = {
        "[OPTIONS] [FILE]",
        "the output distribution and the expected error, exact or enclosed",
        "Prints each candidate's probability of release (17 digits, correctly\n"
        "rounded, inside a rigorous enclosure) and the expected error; --exact\n"
        "gives the exact rationals.  Nothing is released.\n",
        "dpsel pmf --epsilon 1 --monotonic examples/poll.csv\n"
        "dpsel pmf --epsilon 1 --monotonic --mechanism em --exact examples/poll.csv\n"
        "dpsel pmf --epsilon 1 --top 2 examples/poll.csv\n"
        "dpsel pmf --epsilon 1 --monotonic --mechanism rnm examples/poll.csv\n",
    },
    [COMMAND_PARAMS] = {
        "[OPTIONS]",
        "the exact privacy parameters that OPTIONS give",
        "Prints the base x/2^y, the realised epsilon rounded up, the sensitivity,\n"
        "the resolution and the gap cap that a selection with OPTIONS uses.\n",
        "dpsel params --epsilon 1\n"
        "dpsel params --epsilon 0.1 --sensitivity 2 --monotonic --json\n"
        "dpsel params --base 3/2^2\n",
    },
    [COMMAND_CURVE] = {
        "[OPTIONS] [FILE]",
        "expected error of PF and EM over a range of epsilons",
        "Prints the exact expected error of both mechanisms (and of report noisy\n"
        "max with --mechanism rnm) on FILE at each epsilon of --epsilons;\n"
        "--target finds the least epsilon that reaches an expected error.\n"
        "Nothing is released.\n",
        "dpsel curve --monotonic examples/poll.csv\n"
        "dpsel curve --epsilons 0.1,0.5,1 --monotonic examples/poll.csv\n"
        "dpsel curve --monotonic --target 1 examples/poll.csv\n"
        "dpsel curve --epsilons 0.1,1 --monotonic --mechanism rnm examples/poll.csv\n",
    },
    [COMMAND_AUDIT] = {
        "[OPTIONS] FILE_A FILE_B",
        "the privacy loss between two neighbouring score files",
        "Computes the exact privacy loss max |ln(P_a / P_b)| of the mechanism on\n"
        "the two score vectors and proves it against epsilon: exit 0 when the\n"
        "claim holds, 1 when it is broken, 3 when neither can be proved.\n",
        "printf 'a,10\\nb,9\\n' > a.csv; printf 'a,11\\nb,9\\n' > b.csv\n"
        "dpsel audit --epsilon 1 a.csv b.csv\n"
        "dpsel audit --epsilon 1 --mechanism em --json a.csv b.csv\n"
        "dpsel audit --epsilon 1 --mechanism rnm a.csv b.csv\n",
    },
    [COMMAND_QUANTILE] = {
        "--quantile Q --lower A --upper B [OPTIONS] [FILE]",
        "private quantiles of raw values on a public grid",
        "Releases the Q-quantile of FILE's values (one number per line) as a\n"
        "point of the grid A, A + R, ..., B (values outside are clamped), with\n"
        "the exponential mechanism (default) or permute-and-flip.\n",
        "dpsel quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 \\\n"
        "    examples/ages.csv\n"
        "dpsel quantile --quantile 0.5,0.99 --lower 0 --upper 100 --resolution 0.01 \\\n"
        "    --epsilon 1 examples/latencies.csv\n"
        "dpsel quantile --joint --quantile 0.5,0.95,0.99 --lower 0 --upper 100 \\\n"
        "    --resolution 0.01 --epsilon 1 examples/latencies.csv\n"
        "dpsel quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf \\\n"
        "    examples/ages.csv\n",
    },
    [COMMAND_ACCOUNT] = {
        "[OPTIONS] RELEASE...",
        "the privacy of many releases together",
        "States rigorous upper bounds of the total epsilon of the RELEASEs, each\n"
        "em:EPS, pf:EPS or rnm:EPS, or em:EPSxN for N of them: pure epsilon, and with\n"
        "--delta the zCDP, bounded-range and optimal compositions; with --group K\n"
        "also for groups of K people.\n",
        "dpsel account em:0.1x10\n"
        "dpsel account --delta 1e-6 em:0.1x100 pf:0.5\n"
        "dpsel account --delta 1e-6 --nonadaptive --json em:0.1x100\n"
        "dpsel account --delta 1e-6 --group 3 em:0.1x10\n",
    },
};

static const char file_format[] =
    "FILE (default: standard input, or -) has one candidate per line, `label,score`\n"
    "or `score`, at most 4096 bytes; blank lines and lines starting with # are\n"
    "skipped, and the first line may be a header such as `label,score` (its second\n"
    "column named score or count).\n";

static const char exit_statuses[] =
    "exit status: 0 success (and an audit that holds), 1 and 3 audit broken\n"
    "or undecided, 2 bad input (options, a missing, unreadable or malformed\n"
    "file; nothing on stdout), 4 could not complete (out of memory, a read or\n"
    "write error, the random source failed, an internal error; nothing on stdout)\n";

/* "  NAME  SUMMARY" for every command. */
static void print_commands(FILE *out)
{
    for (int c = 0; c < COMMAND_COUNT; c++) {
        fprintf(out, "  %-9s %s\n", command_name((command)c), helps[c].summary);
    }
}

static void print_overview(FILE *out)
{
    for (int c = 0; c < COMMAND_COUNT; c++) {
        fprintf(out, "%s dpsel %s %s\n", c == 0 ? "usage:" : "      ", command_name((command)c),
                helps[c].usage);
    }
    fputs("       dpsel help [COMMAND]\n\ncommands:\n", out);
    print_commands(out);
    fprintf(out, "\n%s\n%s\n", file_format, exit_statuses);
    fputs("Each command's options and examples: dpsel help COMMAND (or dpsel COMMAND\n"
          "--help).  The manual: man dpsel, man dpsel-COMMAND; the library: man 3 dpsel.\n",
          out);
}

static void print_command(FILE *out, command cmd)
{
    const command_help *h = &helps[cmd];
    fprintf(out, "usage: dpsel %s %s\n\n%s\n", command_name(cmd), h->usage, h->about);
    options_print_help(out, cmd);
    fputs("\nexamples:\n", out);
    for (const char *line = h->examples; *line != '\0';) {
        const char *end = strchr(line, '\n');
        fprintf(out, "  %.*s\n", (int)(end - line), line);
        line = end + 1;
    }
    if (cmd != COMMAND_PARAMS && cmd != COMMAND_ACCOUNT) {
        fprintf(out, "\n%s", cmd == COMMAND_QUANTILE
                ? "FILE (default: standard input) has one number per line (12.5, -3e-7,\n"
                  "inf, nan; each clamped into the grid); blank lines and # comments are\n"
                  "skipped, and a first line `value` is a header.\n"
                : file_format);
    }
    fprintf(out, "\n%s\nThe manual: man dpsel-%s.\n", exit_statuses, command_name(cmd));
}

void help_print(FILE *out, const options *o)
{
    if (o->version) {
        fputs("dpsel " DPSEL_VERSION "\n"
              "License: ISC (SPDX-License-Identifier: ISC); see the LICENSE file\n", out);
    } else if (o->help_overview) {
        print_overview(out);
    } else {
        print_command(out, o->cmd);
    }
}

int help_print_short_usage(FILE *err)
{
    fputs("usage: dpsel COMMAND [OPTIONS] [ARGUMENTS]\n\ncommands:\n", err);
    print_commands(err);
    fputs("\ndpsel help COMMAND for its options and examples, dpsel --help for more\n", err);
    return EXIT_BAD_INPUT;
}
