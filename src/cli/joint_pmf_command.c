/* SPDX-License-Identifier: ISC */
/*
 * `dpsel quantile --joint --pmf` (spec/quantiles.md §8): the marginals of
 * the joint release from dpsel_quantiles_joint_pmf_new, one table (or JSON
 * line) per quantile in the form `quantile --pmf` prints for one: the runs
 * of grid points with the same count of values below them, each with its
 * probability and enclosure.  The header names the joint release and its
 * one epsilon, and gives the quantile's expected rank error (the values
 * between the release and the true quantile).  Enclosures only: there are
 * no exact rationals (options.c refuses --exact with --joint).
 */
#include "joint_pmf_command.h"

#include <inttypes.h>
#include <stdlib.h>

#include "progress.h"
#include "shared.h"
#include "text.h"

/* A grid point as the decimal A + v R, into buf (DPSEL_UNITS_TEXT_MAX). */
static int point_text(const joint_release *r, int64_t point, char *buf, cli_error *e)
{
    int rc = dpsel_units_to_decimal(point, r->grid->resolution, buf, DPSEL_UNITS_TEXT_MAX);
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "quantile --joint --pmf", rc);
}

/* Quantile i's value v of the pmf: run v's probability, or for v == runs
 * the expected rank error; a library code. */
static int value_text(const dpsel_joint_pmf *pmf, size_t i, size_t v, pmf_text *t)
{
    if (v == dpsel_joint_pmf_runs(pmf)) {
        int rc = dpsel_joint_pmf_rank_error(pmf, i, &t->value);
        return rc == DPSEL_OK ? dpsel_joint_pmf_rank_error_bounds(pmf, i, BOUND_DIGITS, &t->lower,
                                                                 &t->upper)
                              : rc;
    }
    int rc = dpsel_joint_pmf_probability(pmf, i, v, &t->value);
    return rc == DPSEL_OK ? dpsel_joint_pmf_probability_bounds(pmf, i, v, BOUND_DIGITS, &t->lower,
                                                               &t->upper)
                          : rc;
}

static int print_head(const options *o, const joint_release *r, size_t i, const pmf_text *error,
                      FILE *out, cli_error *e)
{
    char epsilon[EPSILON_TEXT];
    if (epsilon_text(r->params, epsilon, e) != 0) {
        return e->status;
    }
    const dpsel_params *p = r->params;
    if (o->json) {
        fputs("{\"quantile\": ", out);
        json_string(out, r->texts[i]);
        fputs(", \"joint\": ", out);
        json_string(out, o->quantiles);
        fprintf(out, ", \"mechanism\": \"%s\", \"base\": ", mechanism_name(DPSEL_EM));
        print_base(out, p);
        fprintf(out, ", \"epsilon\": \"%s\", \"sensitivity\": \"%" PRIu64 "\", \"resolution\": "
                "\"%s\", \"rank_error\": \"%s\", \"rank_error_enclosure\": [\"%s\", \"%s\"], "
                "\"intervals\": [", epsilon, p->sensitivity, r->grid->resolution, error->value,
                error->lower, error->upper);
    } else {
        fprintf(out, "# quantile %s of the joint release of %s, mechanism %s, base %" PRIu64
                "/2^%u, epsilon <= %s for all %zu, sensitivity %" PRIu64 ", resolution %s, "
                "expected rank error %s\nfrom,to,points,lower,upper,probability\n", r->texts[i],
                o->quantiles, mechanism_name(DPSEL_EM), p->x, p->y, epsilon, r->count,
                p->sensitivity, r->grid->resolution, error->value);
    }
    return 0;
}

static int print_run(const options *o, const joint_release *r, const dpsel_joint_pmf *pmf,
                     size_t run, const pmf_text *t, FILE *out, cli_error *e)
{
    int64_t first;
    uint64_t points;
    char from[DPSEL_UNITS_TEXT_MAX], to[DPSEL_UNITS_TEXT_MAX];
    int rc = dpsel_joint_pmf_run(pmf, run, &first, &points, NULL);
    if (rc != DPSEL_OK) {
        return cli_fail_library(e, "quantile --joint --pmf", rc);
    }
    if (point_text(r, first, from, e) != 0
        || point_text(r, (int64_t)((uint64_t)first + points - 1), to, e) != 0) {
        return e->status;
    }
    if (o->json) {
        fprintf(out, "%s{\"lower\": \"%s\", \"upper\": \"%s\", \"points\": \"%" PRIu64 "\", "
                "\"probability\": \"%s\", \"enclosure\": [\"%s\", \"%s\"]}", run == 0 ? "" : ", ",
                from, to, points, t->value, t->lower, t->upper);
    } else {
        fprintf(out, "%s,%s,%" PRIu64 ",%s,%s,%s\n", from, to, points, t->lower, t->upper,
                t->value);
    }
    return 0;
}

/* Quantile i's texts (every run's, then the rank error's), then its table. */
static int print_quantile(const options *o, const joint_release *r, const dpsel_joint_pmf *pmf,
                          size_t i, FILE *out, cli_error *e)
{
    size_t runs = dpsel_joint_pmf_runs(pmf);
    pmf_text *text = calloc(runs + 1, sizeof *text);
    int rc = text == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    for (size_t v = 0; v <= runs && rc == DPSEL_OK; v++) {
        rc = value_text(pmf, i, v, &text[v]);
    }
    int status = rc == DPSEL_OK ? print_head(o, r, i, &text[runs], out, e)
                                : cli_fail_library(e, "quantile --joint --pmf", rc);
    for (size_t v = 0; v < runs && status == 0; v++) {
        status = print_run(o, r, pmf, v, &text[v], out, e);
    }
    if (status == 0 && o->json) {
        fputs("]}\n", out);
    }
    for (size_t v = 0; text != NULL && v <= runs; v++) {
        pmf_text_free(&text[v]);
    }
    free(text);
    return status;
}

int joint_pmf_make(const options *o, const joint_release *r, dpsel_joint_pmf **pmf)
{
    cli_progress progress;
    cli_progress_start(&progress, "quantile --joint", o->progress, 1);
    cli_progress_step(&progress, 0);
    int rc = dpsel_quantiles_joint_pmf_new(pmf, r->params, r->a, r->b, r->count, r->points, r->m,
                                           r->grid->lower, r->grid->upper, cli_progress_report,
                                           &progress);
    cli_progress_clear(&progress);
    cli_progress_stop(&progress, rc == DPSEL_OK);
    return rc;
}

int joint_pmf_print(const options *o, const joint_release *r, const dpsel_joint_pmf *pmf,
                    FILE *out, cli_error *e)
{
    int status = 0;
    for (size_t i = 0; i < r->count && status == 0; i++) {
        status = print_quantile(o, r, pmf, i, out, e);
    }
    return status;
}
