/* SPDX-License-Identifier: ISC */
/*
 * dpsel curve: how the expected error of permute-and-flip and of the
 * exponential mechanism moves with epsilon, printed beside EM's accuracy
 * bound and the exact tail of each error distribution at that bound
 * (with --mechanism rnm, report noisy max's expected error too, at the
 * epsilon requested); with --target, the least epsilon at which each
 * mechanism's expected error reaches a target.
 *
 * The expected errors and probabilities come from the library's exact pmf,
 * correctly rounded to 17 digits.  Doubles serve only for the epsilon grid,
 * the search, and the derived display columns (ratio, bound, tails).
 */
#include "curve_command.h"
#include "progress.h"
#include "shared.h"
#include "text.h"

#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#define REQUEST_TEXT 32
/* EM's accuracy bound holds with probability 1 - e^-t; t = ln 20 is 95%. */
#define TAIL_ODDS 20.0
#define DECAY_RATE_BITS 192
/* --target: epsilons from 2^-30 D to 2^10 D, bracketed by factors of 4 and
 * bisected (geometrically) until the bracket is within a factor 1 + 1e-4. */
#define SEARCH_LOWEST (1.0 / 1073741824.0)
#define SEARCH_HIGHEST 1024.0
#define SEARCH_FACTOR 4.0
#define SEARCH_STEP 1e-4
/* The bounds of --target's work: at most this many pmfs per mechanism (the
 * search above needs at most 6 + 15 + 14), each of at most this many
 * candidates (PF's enclosure costs about n^2 per pmf: tens of seconds at
 * 4096 candidates); beyond them the search stops with an error. */
#define TARGET_MAX_POINTS 40
#define TARGET_MAX_CANDIDATES 4096

typedef struct {
    const options *opt;
    const candidates *cand;
    const char *file_name;
    cli_error *error;    /* every problem is bad input (status.h) */
    int64_t best;        /* the highest score */
    size_t best_count;   /* how many candidates have it */
    double unit;         /* the scores' unit (1 for integers), for the
                            em_bound column alone (display) */
    cli_progress *progress;  /* a step per pmf */
    const size_t *first;  /* first_of_equal_scores, for the tail column */
} curve;

/* One epsilon: its parameters and, per mechanism (indexed by
 * dpsel_mechanism), the expected error and P(error >= bound). */
typedef struct {
    char requested[REQUEST_TEXT];
    char realised[EPSILON_TEXT];
    double bound;
    char *error[2];
    double error_value[2];
    double tail[2];
    char *rnm_error;   /* --mechanism rnm: its expected error, else NULL */
} point;

static const char *const mechanism_names[2] = { "pf", "em" };

static void point_free(point *p)
{
    for (int m = 0; m < 2; m++) {
        dpsel_string_free(p->error[m]);
        p->error[m] = NULL;
    }
    dpsel_string_free(p->rnm_error);
    p->rnm_error = NULL;
}

/* Report noisy max's expected error at the epsilon requested (realised
 * exactly), in the scores' own unit. */
static int rnm_outcome(const curve *c, point *p)
{
    const options *o = c->opt;
    dpsel_pmf *pmf = NULL;
    int rc = dpsel_rnm_pmf_new(&pmf, p->requested, o->sensitivity, o->monotonic,
                               c->cand->scores, NULL, c->cand->count, cli_progress_report,
                               c->progress);
    cli_progress_step(c->progress, c->progress->step + 1);
    if (rc == DPSEL_OK) {
        rc = dpsel_pmf_expected_error_in_units(pmf, score_unit_text(o), DPSEL_DECIMAL,
                                               &p->rnm_error);
    }
    dpsel_pmf_free(pmf);
    return rc == DPSEL_OK ? 0
         : cli_fail_at(c->error, exit_status_of_error(rc), c->file_name, 0,
                       "rnm pmf at epsilon %s: %s", p->requested, dpsel_strerror(rc));
}

/* ln(1/beta) = y ln 2 - ln x, rounded down (so the bound below is rounded
 * up): computed in MPFR at 192 bits, since ln(1/beta) >= 2^-64 and ln x
 * < 45 lose at most 70 bits to the subtraction.  (log1p(-(1 - beta)) in
 * doubles rounded 1 - beta to 1 when beta < 2^-53: ln(1/beta) infinite.) */
static double decay_rate(const dpsel_params *params)
{
    mpfr_t ln2y, lnx;
    mpfr_inits2(DECAY_RATE_BITS, ln2y, lnx, (mpfr_ptr)0);
    mpfr_const_log2(ln2y, MPFR_RNDD);
    mpfr_mul_ui(ln2y, ln2y, params->y, MPFR_RNDD);
    mpfr_set_uj(lnx, params->x, MPFR_RNDN);    /* exact: 192 >= 64 bits */
    mpfr_log(lnx, lnx, MPFR_RNDU);
    mpfr_sub(ln2y, ln2y, lnx, MPFR_RNDD);
    double rate = mpfr_get_d(ln2y, MPFR_RNDD);
    mpfr_clears(ln2y, lnx, (mpfr_ptr)0);
    return rate;
}

/* EM's error exceeds (2D/eps)(ln(n/n_opt) + t) = (ln(n/n_opt) + t) / ln(1/beta)
 * with probability at most e^-t (D/eps in place of 2D/eps when monotonic). */
static double em_bound(const curve *c, const dpsel_params *params)
{
    double ratio = (double)c->cand->count / (double)c->best_count;
    return (log(ratio) + log(TAIL_ODDS)) / decay_rate(params);
}

static int pmf_outcome(const curve *c, const dpsel_params *params, dpsel_mechanism m, point *p)
{
    dpsel_pmf *pmf = NULL;
    char *text = NULL;
    double tail = 0;
    int rc = dpsel_pmf_new_progress(&pmf, params, m, c->cand->scores, NULL, c->cand->count,
                                    cli_progress_report, c->progress);
    cli_progress_step(c->progress, c->progress->step + 1);
    /* one decimal per distinct score: candidates of a score share it */
    double *value = malloc((c->cand->count > 0 ? c->cand->count : 1) * sizeof *value);
    rc = value == NULL && rc == DPSEL_OK ? DPSEL_ENOMEM : rc;
    for (size_t r = 0; rc == DPSEL_OK && r < c->cand->count; r++) {
        uint64_t gap = (uint64_t)c->best - (uint64_t)c->cand->scores[r];
        if ((double)gap < p->bound) {
            continue;
        }
        if (c->first[r] == r && (rc = dpsel_pmf_probability(pmf, r, DPSEL_DECIMAL, &text)) == DPSEL_OK) {
            value[r] = strtod(text, NULL);
            dpsel_string_free(text);
        }
        tail += value[c->first[r]];
    }
    free(value);
    if (rc == DPSEL_OK) {  /* in the scores' own unit, exactly: E x unit */
        rc = dpsel_pmf_expected_error_in_units(pmf, score_unit_text(c->opt), DPSEL_DECIMAL,
                                               &p->error[m]);
    }
    dpsel_pmf_free(pmf);
    if (rc != DPSEL_OK) {
        return cli_fail_at(c->error, exit_status_of_error(rc), c->file_name, 0, "%s pmf at epsilon %s: %s",
                           mechanism_names[m], p->requested, dpsel_strerror(rc));
    }
    p->error_value[m] = strtod(p->error[m], NULL);
    p->tail[m] = tail;
    return 0;
}

/* Fills p (whose `requested` is set) for the mechanisms in [first, last]. */
static int point_compute(const curve *c, point *p, int first, int last)
{
    const options *o = c->opt;
    dpsel_params params;
    char quoted[QUOTED_MAX];
    int rc = dpsel_params_from_epsilon(&params, p->requested, o->sensitivity, o->monotonic);
    if (rc == DPSEL_OK && o->gap_cap != 0) {
        rc = dpsel_params_set_gap_cap(&params, o->gap_cap);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_params_epsilon(&params, EPSILON_DIGITS, p->realised, sizeof p->realised);
    }
    if (rc != DPSEL_OK) {
        return cli_fail(c->error, exit_status_of_error(rc), "%sepsilon '%s': %s",
                        o->target != NULL ? "" : "--epsilons: ",
                        printable(p->requested, 0, quoted, sizeof quoted), dpsel_strerror(rc));
    }
    p->bound = em_bound(c, &params);
    for (int m = first; m <= last; m++) {
        if (pmf_outcome(c, &params, (dpsel_mechanism)m, p) != 0) {
            point_free(p);
            return -1;
        }
    }
    if (o->mechanism == DPSEL_RNM && rnm_outcome(c, p) != 0) {
        point_free(p);
        return -1;
    }
    return 0;
}

/* The i-th epsilon of --epsilons as a request string. */
static int nth_epsilon(const curve *c, unsigned i, char *out)
{
    const options *o = c->opt;
    if (o->epsilons_count > 0) {
        double low = log(o->epsilons_low), high = log(o->epsilons_high);
        double e = i == 0 ? o->epsilons_low : i + 1 == o->epsilons_count ? o->epsilons_high
                 : exp(low + (high - low) * i / (o->epsilons_count - 1));
        snprintf(out, REQUEST_TEXT, "%.6g", e);
        return 0;
    }
    const char *item = o->epsilons;
    for (unsigned k = 0; k < i; k++) {
        item = strchr(item, ',') + 1;
    }
    size_t length = strcspn(item, ",");
    if (length >= REQUEST_TEXT) {
        char quoted[QUOTED_MAX];
        return cli_fail(c->error, EXIT_BAD_INPUT, "--epsilons: value too long: '%s'",
                        printable(item, 0, quoted, sizeof quoted));
    }
    memcpy(out, item, length);
    out[length] = '\0';
    return 0;
}

static unsigned epsilon_count(const options *o)
{
    if (o->epsilons_count > 0) {
        return o->epsilons_count;
    }
    unsigned items = 1;
    for (const char *s = o->epsilons; *s != '\0'; s++) {
        items += *s == ',';
    }
    return items;
}

static void print_double(FILE *out, double value, int json)
{
    if (isfinite(value)) {
        fprintf(out, "%.10g", value);
    } else {
        fputs(json ? "null" : "", out);
    }
}

/* The bound p->bound is in score units: printed in the scores' own unit. */
static void print_point(FILE *out, const point *p, double unit, int json)
{
    double ratio = p->error_value[DPSEL_PF] > 0 ? p->error_value[DPSEL_EM] / p->error_value[DPSEL_PF]
                                                 : NAN;
    fprintf(out, json ? "{\"epsilon\": \"%s\", \"epsilon_realised\": \"%s\", \"error_pf\": \"%s\", "
                        "\"error_em\": \"%s\", \"ratio\": "
                      : "%s,%s,%s,%s,",
            p->requested, p->realised, p->error[DPSEL_PF], p->error[DPSEL_EM]);
    print_double(out, ratio, json);
    fputs(json ? ", \"em_bound\": " : ",", out);
    print_double(out, p->bound * unit, json);
    fprintf(out, json ? ", \"tail_pf\": %.10g, \"tail_em\": %.10g" : ",%.10g,%.10g",
            p->tail[DPSEL_PF], p->tail[DPSEL_EM]);
    if (p->rnm_error != NULL) {
        fprintf(out, json ? ", \"error_rnm\": \"%s\"" : ",%s", p->rnm_error);
    }
    fputs(json ? "}" : "\n", out);
}

/* The sensitivity is printed in the scores' own unit, as the errors are. */
static int print_curve_head(const curve *c, FILE *out)
{
    const options *o = c->opt;
    int rnm = o->mechanism == DPSEL_RNM;
    char sensitivity[UNITS_TEXT];
    if (units_text(o, o->sensitivity, sensitivity, c->error) != 0) {
        return -1;
    }
    if (o->json) {
        fprintf(out, "{\"candidates\": %zu, \"sensitivity\": \"%s\", \"monotonic\": %s, "
                "\"tail_probability\": %.10g, \"points\": [", c->cand->count, sensitivity,
                o->monotonic ? "true" : "false", 1 / TAIL_ODDS);
        return 0;
    }
    fprintf(out, "# dpsel curve: %zu candidates (%zu best), sensitivity %s, %smonotonic\n"
            "# em_bound = (2D/eps)(ln(n/n_opt) + ln 20) (D/eps when monotonic): EM's error "
            "exceeds it with probability <= 0.05;\n"
            "# tail_pf, tail_em = P(error >= em_bound) from the exact pmf\n%s"
            "epsilon,epsilon_realised,error_pf,error_em,ratio,em_bound,tail_pf,tail_em%s\n",
            c->cand->count, c->best_count, sensitivity, o->monotonic ? "" : "not ",
            rnm ? "# error_rnm = report noisy max's at the epsilon requested (realised "
                  "exactly)\n" : "", rnm ? ",error_rnm" : "");
    return 0;
}

static int print_curve(const curve *c, FILE *out)
{
    unsigned count = epsilon_count(c->opt);
    if (print_curve_head(c, out) != 0) {
        return -1;
    }
    for (unsigned i = 0; i < count; i++) {
        point p = { .error = { NULL, NULL } };
        if (nth_epsilon(c, i, p.requested) != 0 || point_compute(c, &p, DPSEL_PF, DPSEL_EM) != 0) {
            return -1;
        }
        fputs(c->opt->json && i > 0 ? ", " : "", out);
        cli_progress_clear(c->progress);
        print_point(out, &p, c->unit, c->opt->json);
        point_free(&p);
    }
    fputs(c->opt->json ? "]}\n" : "", out);
    return 0;
}

/* Mechanism m at epsilon e, the *points-th pmf of the search: *reached says
 * whether its expected error is at most the target.  On success *p holds the
 * point (the caller frees it). */
static int try_epsilon(const curve *c, dpsel_mechanism m, double e, point *p, int *reached,
                       unsigned *points)
{
    if (++*points > TARGET_MAX_POINTS) {
        return cli_fail_at(c->error, EXIT_BAD_INPUT, c->file_name, 0,
                           "curve --target: no answer for %s within %d pmfs", mechanism_names[m],
                           TARGET_MAX_POINTS);
    }
    memset(p, 0, sizeof *p);
    snprintf(p->requested, sizeof p->requested, "%.9g", e);
    if (point_compute(c, p, m, m) != 0) {
        return -1;
    }
    /* ERR and the error both in the scores' own unit (E x unit for decimal
     * scores): compared as they are */
    *reached = p->error_value[m] <= c->opt->target_error;
    return 0;
}

/* Keeps `candidate` as the best point so far, freeing the previous one. */
static void keep(point *best, point *candidate)
{
    point_free(best);
    *best = *candidate;
}

/* One step of the search between *low (error above the target) and *high
 * (at most the target, its point in *best): tries e, which becomes the new
 * *high (its point kept) or the new *low. */
static int narrow(const curve *c, dpsel_mechanism m, double e, point *best, double *low,
                  double *high, unsigned *points)
{
    point p;
    int reached;
    if (try_epsilon(c, m, e, &p, &reached, points) != 0) {
        return -1;
    }
    if (reached) {
        keep(best, &p);
        *high = e;
    } else {
        point_free(&p);
        *low = e;
    }
    return 0;
}

/* The least epsilon (on the search) at which m's expected error is at most
 * the target, in *best; *found is 0 when even 2^10 D does not reach it.
 * Assumes, as holds for both mechanisms, that the error falls as epsilon
 * grows. */
static int least_epsilon(const curve *c, dpsel_mechanism m, point *best, int *found)
{
    double scale = (double)c->opt->sensitivity;
    double low = 0, high = scale;
    point p;
    int reached;
    unsigned points = 0;
    *found = 0;
    for (;;) {
        if (try_epsilon(c, m, high, &p, &reached, &points) != 0) {
            return -1;
        }
        if (reached) {
            keep(best, &p);
            break;
        }
        point_free(&p);
        low = high;
        high *= SEARCH_FACTOR;
        if (high > SEARCH_HIGHEST * scale) {
            return 0;
        }
    }
    while (low == 0 && high / SEARCH_FACTOR >= SEARCH_LOWEST * scale) {
        if (narrow(c, m, high / SEARCH_FACTOR, best, &low, &high, &points) != 0) {
            return -1;
        }
    }
    while (low > 0 && high / low > 1 + SEARCH_STEP) {
        if (narrow(c, m, sqrt(low * high), best, &low, &high, &points) != 0) {
            return -1;
        }
    }
    *found = 1;
    return 0;
}

static void print_target_row(FILE *out, const point *p, dpsel_mechanism m, int found, int json)
{
    if (json) {
        fprintf(out, "\"%s\": ", mechanism_names[m]);
        if (found) {
            fprintf(out, "{\"epsilon\": \"%s\", \"epsilon_realised\": \"%s\", \"expected_error\": \"%s\"}",
                    p->requested, p->realised, p->error[m]);
        } else {
            fputs("null", out);
        }
    } else if (found) {
        fprintf(out, "%s,%s,%s,%s\n", mechanism_names[m], p->requested, p->realised, p->error[m]);
    } else {
        fprintf(out, "%s,,,\n", mechanism_names[m]);
    }
}

static int print_target(const curve *c, FILE *out)
{
    const options *o = c->opt;
    point best[2] = { { .error = { NULL, NULL } }, { .error = { NULL, NULL } } };
    int found[2];
    if (c->cand->count > TARGET_MAX_CANDIDATES) {
        return cli_fail_at(c->error, EXIT_BAD_INPUT, c->file_name, 0,
                           "curve --target: %zu candidates, at most %d (each of the search's "
                           "pmfs would take minutes); use --epsilons", c->cand->count,
                           TARGET_MAX_CANDIDATES);
    }
    for (int m = 0; m < 2; m++) {
        if (least_epsilon(c, (dpsel_mechanism)m, &best[m], &found[m]) != 0) {
            point_free(&best[0]);
            point_free(&best[1]);
            return -1;
        }
    }
    double ratio = found[0] && found[1] ? strtod(best[1].realised, NULL) / strtod(best[0].realised, NULL)
                                        : NAN;
    if (o->json) {
        fprintf(out, "{\"target\": \"%s\", ", o->target);
    } else {
        fprintf(out, "# dpsel curve --target %s: the least epsilon (bisection to a factor 1.0001) "
                "at which the expected error is <= %s\nmechanism,epsilon,epsilon_realised,expected_error\n",
                o->target, o->target);
    }
    print_target_row(out, &best[0], DPSEL_PF, found[0], o->json);
    fputs(o->json ? ", " : "", out);
    print_target_row(out, &best[1], DPSEL_EM, found[1], o->json);
    fputs(o->json ? ", \"epsilon_ratio_em_pf\": " : "# epsilon ratio em/pf ", out);
    print_double(out, ratio, o->json);
    fputs(o->json ? "}\n" : "\n", out);
    point_free(&best[0]);
    point_free(&best[1]);
    return 0;
}

int curve_print(const options *o, const candidates *cand, const char *file_name,
                FILE *out, cli_error *error)
{
    /* the search's pmfs are at most TARGET_MAX_POINTS per mechanism */
    cli_progress progress;
    unsigned mechanisms = o->mechanism == DPSEL_RNM ? 3 : 2;   /* a pmf each per point */
    cli_progress_start(&progress, "curve", o->progress,
                       mechanisms * (o->target != NULL ? TARGET_MAX_POINTS : epsilon_count(o)));
    curve c = { o, cand, file_name, error, cand->scores[0], 0,
                strtod(score_unit_text(o), NULL), &progress, NULL };
    size_t *first = first_of_equal_scores(cand->scores, cand->count);
    if (first == NULL) {
        cli_progress_stop(&progress, 0);
        return cli_fail_library(error, "curve", DPSEL_ENOMEM);
    }
    c.first = first;
    for (size_t r = 0; r < cand->count; r++) {
        c.best = cand->scores[r] > c.best ? cand->scores[r] : c.best;
    }
    for (size_t r = 0; r < cand->count; r++) {
        c.best_count += cand->scores[r] == c.best;
    }
    int rc = o->target != NULL ? print_target(&c, out) : print_curve(&c, out);
    free(first);
    cli_progress_stop(&progress, rc == 0);
    return rc == 0 ? 0 : error->status;
}

int task_scores(const options *o, candidates *cand, const char *file_name, cli_error *error)
{
    if (!o->task_given) {
        return 0;
    }
    for (size_t r = 0; r < cand->count; r++) {
        if (cand->scores[r] < 0) {
            return cli_fail_at(error, EXIT_BAD_INPUT, file_name, cand->lines[r],
                               "--task needs counts >= 0");
        }
    }
    /* audit keeps the counts, to build the scores once both files' rows are
     * in one order (audit_command.c): here they are only checked */
    int64_t *scores = o->cmd != COMMAND_AUDIT ? cand->scores
                    : calloc(cand->count, sizeof *scores);
    if (scores == NULL) {
        return cli_fail_at(error, EXIT_CANNOT_COMPLETE, file_name, 0, "out of memory for %zu candidates",
                           cand->count);
    }
    int rc = dpsel_task_scores(o->task, cand->scores, cand->count, scores);
    if (scores != cand->scores) {
        free(scores);
    }
    if (rc != DPSEL_OK) {
        return cli_fail_at(error, EXIT_BAD_INPUT, file_name, 0,
                           "--task: the counts add up to more than %" PRId64 " (%s)", INT64_MAX,
                           dpsel_strerror(rc));
    }
    return 0;
}
