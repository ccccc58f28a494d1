/* What the tool's commands share: the parameters from the options, the
 * random source, the epsilon texts, opening FILE, and the text of a pmf's
 * values. */
#ifndef DPSEL_CLI_SHARED_H
#define DPSEL_CLI_SHARED_H

#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "options.h"
#include "status.h"

/* Epsilons are printed with 17 significant digits, rounded up. */
#define EPSILON_DIGITS 17
#define EPSILON_TEXT (EPSILON_DIGITS + 16)

/* The parameters of --epsilon or --base, and --gap-cap, for scores of this
 * sensitivity and monotonicity (the options' own, or a command's such as a
 * quantile's). */
int params_from_options(const options *o, uint64_t sensitivity, int monotonic,
                        dpsel_params *out, cli_error *e);

/* The realised epsilon of params, rounded up, into buf (EPSILON_TEXT). */
int epsilon_text(const dpsel_params *params, char *buf, cli_error *e);

/* The total epsilon of `count` releases with each of params[0 .. k - 1]
 * (basic composition: count times the sum of their epsilons), rounded up,
 * into buf (EPSILON_TEXT). */
int total_epsilon_text(const dpsel_params *params, size_t k, uint64_t count, char *buf,
                       cli_error *e);

const char *mechanism_name(dpsel_mechanism m);

/* {"x": "X", "y": Y} */
void print_base(FILE *out, const dpsel_params *params);

/* The OS source, or with --seed the seeded stream (and the warning that
 * it is for tests and audits only). */
int init_rng(const options *o, dpsel_rng *rng, cli_error *e);

/* Opens file (standard input for NULL or "-"); *name receives its printable
 * name, kept in quoted[QUOTED_MAX], and *regular whether it is a regular
 * file. */
int open_input(const char *file, FILE **stream, const char **name, char *quoted, int *regular,
               cli_error *e);

void close_input(FILE *stream);

/* Significant digits of the printed enclosures: the bounds are within 1e-30
 * relative, so 36 digits show them, rounded outwards. */
#define BOUND_DIGITS 36

/* One value of a pmf as text: the probability (or expected error) and its
 * enclosure [lower, upper]. */
typedef struct {
    char *value;
    char *lower;
    char *upper;
} pmf_text;

/* Item i < n of the pmf (a candidate's probability), or the expected error
 * for i == n: a library code. */
int pmf_text_make(const dpsel_pmf *pmf, size_t i, size_t n, dpsel_format format, pmf_text *t);

void pmf_text_free(pmf_text *t);

#endif
