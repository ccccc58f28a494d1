/* SPDX-License-Identifier: ISC */
/* What the tool's commands share: the parameters from the options, the
 * random source, the epsilon texts, opening FILE, and the text of a pmf's
 * values. */
#ifndef DPSEL_CLI_SHARED_H
#define DPSEL_CLI_SHARED_H

#include <stdint.h>
#include <stdio.h>

#include "dpsel.h"
#include "input.h"
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

/* Report noisy max's Laplace scale W / P (dpsel_rnm_scale) for --epsilon,
 * --sensitivity and --monotonic, its refusals said in the options' words:
 * checked before any data is read, without EM and PF's base-2 parameters
 * (which a valid RNM epsilon need not have). */
int rnm_scale_from_options(const options *o, uint64_t *w, uint64_t *p, cli_error *e);

/* The realised epsilon of params, rounded up, into buf (EPSILON_TEXT). */
int epsilon_text(const dpsel_params *params, char *buf, cli_error *e);

const char *mechanism_name(dpsel_mechanism m);

/* How FILE's scores are read under o: decimals in o's unit or integers,
 * with --sensitivity (not for --task's counts) for advice. */
score_format score_format_of(const options *o);

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

/* t = a copy of the texts of from (DPSEL_ENOMEM). */
int pmf_text_copy(const pmf_text *from, pmf_text *t);

/* For each of the n scores, the first position with the same score (so
 * first[r] == r for the first of each value; candidates of one score have
 * one probability): a new array, or NULL if out of memory.  O(n log n). */
size_t *first_of_equal_scores(const int64_t *scores, size_t n);

/* The expected error in the scores' own unit (the decimal `unit`, "1" for
 * integer scores) and its enclosure: a library code. */
int pmf_error_text_make(const dpsel_pmf *pmf, const char *unit, dpsel_format format,
                        pmf_text *t);

void pmf_text_free(pmf_text *t);

/* The unit of the scores (and of the sensitivity) as text: o->unit, or "1"
 * for integer scores. */
const char *score_unit_text(const options *o);

/* Room for units_text: a number of units times the unit, with one more
 * digit for the largest distances and one for a carry on the way. */
#define UNITS_TEXT (DPSEL_UNITS_TEXT_MAX + 2)

/* A score in the scores' own unit as a decimal into buf (UNITS_TEXT
 * bytes): the integer itself for integer scores, score x unit with the
 * unit's digits for decimal scores (dpsel_units_to_decimal).  0, or a
 * status with the problem recorded in e. */
int score_text(const options *o, int64_t score, char *buf, cli_error *e);

/* score_text for a sensitivity or a distance: units up to 2^64 - 1 (the
 * distance between the two extreme int64 scores). */
int units_text(const options *o, uint64_t units, char *buf, cli_error *e);

/* The refusal of exact rationals beyond the library's limits, before any
 * work: "NAME: WHAT: the exact rationals of SIZE need WORK bits of weight
 * arithmetic, beyond the limit of LIMIT; drop --exact ...".  Returns the
 * exit status (EXIT_BAD_INPUT). */
int cli_exact_too_large(cli_error *e, const char *name, const char *what, const char *size,
                        uint64_t work, uint64_t limit);

#endif
