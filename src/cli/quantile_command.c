/* SPDX-License-Identifier: ISC */
/*
 * `dpsel quantile` (spec/quantiles.md): the values of FILE on the grid of
 * --lower, --upper and --resolution, then for each quantile of --quantile
 * its runs, and either --count releases or, with --pmf, the exact
 * distribution over the runs.  Everything is checked before the first
 * random bit is drawn; the output goes to the command's buffer, which main
 * writes only on success.
 */
#include "quantile_command.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "account_command.h"
#include "dpsel.h"
#include "input.h"
#include "joint_pmf_command.h"
#include "progress.h"
#include "shared.h"
#include "text.h"

/* The most quantiles one command releases. */
#define QUANTILES_MAX 1000

/* One quantile of --quantile, with what its releases need. */
typedef struct {
    const char *text;            /* as given: a piece of the command's copy */
    uint64_t a, b;               /* q = a / b in lowest terms */
    dpsel_params params;         /* with sensitivity max(a, b - a) */
    dpsel_selector *selector;
    dpsel_quantile_runs *runs;
} quantile;

typedef struct {
    const options *o;
    FILE *out;
    cli_error *e;
    dpsel_grid grid;
    const char *file_name;
    char file_quoted[QUOTED_MAX];
    int64_t *points;             /* the values on the grid */
    size_t m;
    char *list;                  /* a copy of --quantile, cut at the commas */
    quantile *q;
    size_t count;
    dpsel_params joint_params;   /* --joint: with the utility's sensitivity */
    dpsel_selector *joint_selector;
} quantile_job;

static int refuse(quantile_job *j, const char *what, const char *value)
{
    char quoted[QUOTED_MAX];
    return cli_fail(j->e, EXIT_BAD_INPUT, "%s: '%s'", what,
                    printable(value, 0, quoted, sizeof quoted));
}

/* --quantile Q1,Q2,...: each a decimal in (0, 1), as a / b. */
static int parse_quantiles(quantile_job *j)
{
    j->list = strdup(j->o->quantiles);
    j->q = calloc(QUANTILES_MAX, sizeof *j->q);
    if (j->list == NULL || j->q == NULL) {
        return cli_fail(j->e, EXIT_CANNOT_COMPLETE, "out of memory");
    }
    char *next = j->list;
    while (next != NULL) {
        char *text = next;
        next = strchr(text, ',');
        if (next != NULL) {
            *next++ = '\0';
        }
        if (j->count == QUANTILES_MAX) {
            return refuse(j, "--quantile takes at most 1000 quantiles", j->o->quantiles);
        }
        quantile *q = &j->q[j->count++];
        uint64_t sensitivity;
        q->text = text;
        if (dpsel_quantile_fraction(text, &q->a, &q->b, &sensitivity) != DPSEL_OK) {
            return refuse(j, "--quantile must be decimals strictly between 0 and 1, at most 18 "
                          "fraction digits (a list Q1,Q2,...)", text);
        }
        if (params_from_options(j->o, sensitivity, 0, &q->params, j->e) != 0) {
            return j->e->status;
        }
    }
    return 0;
}

/* The text is a decimal dpsel reads (as a grid of one point would). */
static int is_decimal(const char *text)
{
    dpsel_grid probe;
    return dpsel_grid_init(&probe, text, text, NULL) != DPSEL_EDECIMAL;
}

/* The end (dpsel_grid_init of it alone) is not a whole multiple of the
 * resolution. */
static int is_off_grid(const char *end, const char *resolution)
{
    dpsel_grid probe;
    return dpsel_grid_init(&probe, end, end, resolution) == DPSEL_EUNIT;
}

/* "--upper 10 is not a whole multiple of --resolution 7", naming each end
 * that is not (a resolution of their last digit fits both). */
static int refuse_off_grid(quantile_job *j)
{
    const options *o = j->o;
    int lower = is_off_grid(o->lower, o->resolution);
    int upper = is_off_grid(o->upper, o->resolution);
    if (lower && upper) {
        return cli_fail(j->e, EXIT_BAD_INPUT, "--lower %s and --upper %s are not whole multiples "
                        "of --resolution %s: give ends on the grid", o->lower, o->upper,
                        o->resolution);
    }
    return cli_fail(j->e, EXIT_BAD_INPUT, "--%s %s is not a whole multiple of --resolution %s: "
                    "give ends on the grid", lower ? "lower" : "upper", lower ? o->lower : o->upper,
                    o->resolution);
}

/* The grid of --lower, --upper and --resolution, each problem named. */
static int make_grid(quantile_job *j)
{
    const options *o = j->o;
    const char *names[3] = { "--lower", "--upper", "--resolution" };
    const char *texts[3] = { o->lower, o->upper, o->resolution };
    for (int i = 0; i < 3; i++) {
        if (texts[i] != NULL && !is_decimal(texts[i])) {
            char what[64];
            snprintf(what, sizeof what, "%s must be a decimal number", names[i]);
            return refuse(j, what, texts[i]);
        }
    }
    int rc = dpsel_grid_init(&j->grid, o->lower, o->upper, o->resolution);
    if (rc == DPSEL_EUNIT) {
        return refuse_off_grid(j);
    }
    if (rc != DPSEL_OK) {
        int64_t one;
        if (o->resolution != NULL && dpsel_decimal_to_units(o->resolution, o->resolution, &one)
                                         != DPSEL_OK) {
            return refuse(j, "--resolution must be positive", o->resolution);
        }
        return cli_fail(j->e, EXIT_BAD_INPUT, "--lower %s must not exceed --upper %s, and both "
                        "must be within 2^63 steps of the resolution from 0", o->lower, o->upper);
    }
    return 0;
}

/* The grid's points less one (below 2^64 always). */
static uint64_t grid_span(const dpsel_grid *grid)
{
    return (uint64_t)grid->upper - (uint64_t)grid->lower;
}

static int read_values(quantile_job *j)
{
    FILE *stream;
    int regular;
    int status = open_input(j->o->file, &stream, &j->file_name, j->file_quoted, &regular, j->e);
    if (status == 0) {
        status = values_read(stream, j->file_name, &j->grid, &j->points, &j->m, j->e);
        close_input(stream);
    }
    return status;
}

/* A grid of at most 2^62 points, the limit named. */
static int check_grid_size(quantile_job *j)
{
    if (grid_span(&j->grid) >= (uint64_t)1 << 62) {
        return cli_fail(j->e, EXIT_BAD_INPUT, "the grid from --lower %s to --upper %s has more "
                        "than 2^62 points: use a coarser --resolution", j->o->lower, j->o->upper);
    }
    return 0;
}

/* Quantile q's runs and selector, with the limits named. */
static int prepare(quantile_job *j, quantile *q)
{
    uint64_t span = grid_span(&j->grid);
    if (check_grid_size(j) != 0) {
        return j->e->status;
    }
    if (j->o->mechanism == DPSEL_EM && span >= DPSEL_QUANTILE_EM_GRID_MAX) {
        return cli_fail(j->e, EXIT_BAD_INPUT, "--mechanism em takes grids of at most %" PRIu64
                        " points; this one has %" PRIu64 ": use a coarser --resolution or "
                        "--mechanism pf", DPSEL_QUANTILE_EM_GRID_MAX, span + 1);
    }
    int rc = dpsel_quantile_runs_new(&q->runs, q->a, q->b, j->points, j->m, j->grid.lower,
                                     j->grid.upper);
    if (rc == DPSEL_OK) {
        rc = dpsel_selector_new(&q->selector, &q->params);
    }
    if (rc != DPSEL_OK) {
        return cli_fail_library(j->e, "quantile", rc);
    }
    return 0;
}

/* A grid point as the decimal A + v R, into buf (DPSEL_UNITS_TEXT_MAX). */
static int point_text(const quantile_job *j, int64_t point, char *buf)
{
    int rc = dpsel_units_to_decimal(point, j->grid.resolution, buf, DPSEL_UNITS_TEXT_MAX);
    return rc == DPSEL_OK ? 0 : cli_fail_library(j->e, "quantile", rc);
}

/* One JSON string, or a text line, per released value. */
static int print_value(quantile_job *j, int64_t point, uint64_t i)
{
    char text[DPSEL_UNITS_TEXT_MAX];
    if (point_text(j, point, text) != 0) {
        return j->e->status;
    }
    if (j->o->json) {
        fprintf(j->out, "%s\"%s\"", i == 0 ? "" : ", ", text);
    } else {
        fprintf(j->out, "%s\n", text);
    }
    return 0;
}

/* --count releases of q: text lines, or one JSON object. */
static int release(quantile_job *j, quantile *q, dpsel_rng *rng)
{
    const options *o = j->o;
    if (o->json) {
        fputs("{\"quantile\": ", j->out);
        json_string(j->out, q->text);
        fputs(o->count == 1 ? ", \"value\": " : ", \"values\": [", j->out);
    }
    for (uint64_t i = 0; i < o->count; i++) {
        int64_t point;
        int rc = dpsel_quantile_select_runs(q->selector, o->mechanism, q->runs, rng, &point);
        if (rc != DPSEL_OK) {
            return cli_fail_library(j->e, "quantile", rc);
        }
        if (print_value(j, point, i) != 0) {
            return j->e->status;
        }
    }
    if (o->json) {
        fputs(o->count == 1 ? "}\n" : "]}\n", j->out);
    }
    return 0;
}

/* The epsilon of each quantile's releases, then the accountant's line:
 * releases fixed before any is seen (one data set, the same grid). */
static int print_composition(quantile_job *j)
{
    dpsel_params *each = calloc(j->count, sizeof *each);
    if (each == NULL) {
        return cli_fail(j->e, EXIT_CANNOT_COMPLETE, "out of memory");
    }
    char epsilon[EPSILON_TEXT];
    int status = 0;
    for (size_t i = 0; i < j->count && status == 0; i++) {
        each[i] = j->q[i].params;
        status = epsilon_text(&each[i], epsilon, j->e);
        if (status == 0) {
            fprintf(stderr, "dpsel: quantile %s: %" PRIu64 " release%s, each epsilon <= %s\n",
                    j->q[i].text, j->o->count, j->o->count == 1 ? "" : "s", epsilon);
        }
    }
    char what[64];
    snprintf(what, sizeof what, "%" PRIu64 " releases", (uint64_t)j->count * j->o->count);
    if (status == 0) {
        status = account_state(j->o, each, j->count, j->o->count, DPSEL_NONADAPTIVE, what, j->e);
    }
    free(each);
    return status;
}

static int release_all(quantile_job *j)
{
    dpsel_rng rng;
    memset(&rng, 0, sizeof rng);  /* wiped at the end, drawn from or not */
    int status = init_rng(j->o, &rng, j->e);
    for (size_t i = 0; i < j->count && status == 0; i++) {
        status = release(j, &j->q[i], &rng);
    }
    dpsel_rng_wipe(&rng);
    if (status == 0 && j->count * j->o->count > 1) {
        status = print_composition(j);
    }
    return status;
}

/* One interval of the pmf: its grid points and probability. */
static int print_interval(quantile_job *j, const quantile *q, size_t i, const pmf_text *t)
{
    int64_t first;
    uint64_t points;
    char from[DPSEL_UNITS_TEXT_MAX], to[DPSEL_UNITS_TEXT_MAX];
    int rc = dpsel_quantile_runs_get(q->runs, i, &first, &points, NULL);
    if (rc != DPSEL_OK) {
        return cli_fail_library(j->e, "quantile --pmf", rc);
    }
    if (point_text(j, first, from) != 0
        || point_text(j, (int64_t)((uint64_t)first + points - 1), to) != 0) {
        return j->e->status;
    }
    if (j->o->json) {
        fprintf(j->out, "%s{\"lower\": \"%s\", \"upper\": \"%s\", \"points\": \"%" PRIu64 "\", "
                "\"probability\": \"%s\", \"enclosure\": [\"%s\", \"%s\"]}",
                i == 0 ? "" : ", ", from, to, points, t->value, t->lower, t->upper);
    } else {
        fprintf(j->out, "%s,%s,%" PRIu64 ",%s,%s,%s\n", from, to, points, t->lower, t->upper,
                t->value);
    }
    return 0;
}

static int print_pmf_head(quantile_job *j, const quantile *q)
{
    const dpsel_params *p = &q->params;
    char epsilon[EPSILON_TEXT];
    if (epsilon_text(p, epsilon, j->e) != 0) {
        return j->e->status;
    }
    if (j->o->json) {
        fputs("{\"quantile\": ", j->out);
        json_string(j->out, q->text);
        fprintf(j->out, ", \"mechanism\": \"%s\", \"base\": ", mechanism_name(j->o->mechanism));
        print_base(j->out, p);
        fprintf(j->out, ", \"epsilon\": \"%s\", \"sensitivity\": \"%" PRIu64 "\", \"gap_cap\": %"
                PRIu64 ", \"resolution\": \"%s\", \"intervals\": [", epsilon, p->sensitivity,
                p->gap_cap, j->grid.resolution);
    } else {
        fprintf(j->out, "# quantile %s, mechanism %s, base %" PRIu64 "/2^%u, epsilon <= %s, "
                "sensitivity %" PRIu64 ", gap cap %" PRIu64 ", resolution %s\n"
                "from,to,points,lower,upper,probability\n", q->text,
                mechanism_name(j->o->mechanism), p->x, p->y, epsilon, p->sensitivity,
                p->gap_cap, j->grid.resolution);
    }
    return 0;
}

/* The texts of every interval's probability, then the output. */
static int print_pmf(quantile_job *j, const quantile *q, const dpsel_pmf *pmf)
{
    size_t n = dpsel_quantile_runs_count(q->runs);
    dpsel_format format = j->o->exact ? DPSEL_RATIONAL : DPSEL_DECIMAL;
    pmf_text *text = calloc(n, sizeof *text);
    int rc = text == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
        rc = pmf_text_make(pmf, i, n, format, &text[i]);
    }
    int status = rc == DPSEL_OK ? print_pmf_head(j, q) : cli_fail_library(j->e, "quantile --pmf", rc);
    for (size_t i = 0; i < n && status == 0; i++) {
        status = print_interval(j, q, i, &text[i]);
    }
    if (status == 0 && j->o->json) {
        fputs("]}\n", j->out);
    }
    for (size_t i = 0; text != NULL && i < n; i++) {
        pmf_text_free(&text[i]);
    }
    free(text);
    return status;
}

/* --exact: every quantile's exact rationals within the library's limits,
 * known before any pmf is made (dpsel_quantile_pmf_exact_work). */
static int check_exact_sizes(quantile_job *j)
{
    for (size_t i = 0; i < j->count; i++) {
        uint64_t work = 0, limit = 0;
        int rc = dpsel_quantile_pmf_exact_work(&j->q[i].params, j->o->mechanism, j->q[i].runs,
                                               &work, &limit);
        if (rc != DPSEL_OK) {
            return cli_fail_library(j->e, "quantile --pmf --exact", rc);
        }
        char size[96];
        snprintf(size, sizeof size, "quantile %s (%zu runs of %" PRIu64 " grid points)",
                 j->q[i].text, dpsel_quantile_runs_count(j->q[i].runs), grid_span(&j->grid) + 1);
        if (work > limit) {
            return cli_exact_too_large(j->e, NULL, "quantile --pmf --exact", size, work, limit);
        }
    }
    return 0;
}

/* A pmf's scores must fit int64 (b m < 2^63; a release needs only their
 * gaps, so only the pmf, an analysis of the data, is refused). */
static int check_pmf_scores(quantile_job *j)
{
    for (size_t i = 0; i < j->count; i++) {
        const quantile *q = &j->q[i];
        if (j->m > (uint64_t)INT64_MAX / q->b) {
            return cli_fail_at(j->e, EXIT_BAD_INPUT, j->file_name, 0, "quantile %s of %zu "
                               "values: the pmf's scores pass the int64 range (b m >= 2^63 for "
                               "q = %" PRIu64 "/%" PRIu64 "); a release works, --pmf does not",
                               q->text, j->m, q->a, q->b);
        }
    }
    return 0;
}

static int distributions(quantile_job *j)
{
    int status = check_pmf_scores(j);
    if (status == 0 && j->o->exact) {
        status = check_exact_sizes(j);
    }
    cli_progress progress;
    cli_progress_start(&progress, "quantile", j->o->progress, j->count);
    for (size_t i = 0; i < j->count && status == 0; i++) {
        dpsel_pmf *pmf = NULL;
        cli_progress_step(&progress, i);
        int rc = dpsel_quantile_pmf_new_progress(&pmf, &j->q[i].params, j->o->mechanism,
                                                 j->q[i].runs, cli_progress_report, &progress);
        cli_progress_clear(&progress);
        status = rc == DPSEL_OK ? print_pmf(j, &j->q[i], pmf)
                                : cli_fail_library(j->e, "quantile --pmf", rc);
        dpsel_pmf_free(pmf);
    }
    cli_progress_stop(&progress, status == 0);
    return status;
}

/* ---------------------------------------------------------- --joint */

/* The quantiles' fractions, as the library takes them (a and b, count
 * each), or NULL out of memory. */
static uint64_t *joint_fractions(const quantile_job *j)
{
    uint64_t *f = malloc(2 * j->count * sizeof *f);
    for (size_t i = 0; f != NULL && i < j->count; i++) {
        f[i] = j->q[i].a;
        f[j->count + i] = j->q[i].b;
    }
    return f;
}

/* 128-bit integers, a GCC and clang extension: a / b against c / d */
__extension__ typedef unsigned __int128 wide;

/* Why the quantiles cannot be released jointly, named. */
static int refuse_joint_quantiles(quantile_job *j)
{
    for (size_t i = 1; i < j->count; i++) {
        const quantile *q = &j->q[i], *before = &j->q[i - 1];
        if ((wide)q->a * before->b <= (wide)before->a * q->b) {
            return cli_fail(j->e, EXIT_BAD_INPUT, "--joint takes the quantiles in increasing "
                            "order, each once: '%s' comes after '%s'", q->text, before->text);
        }
    }
    return cli_fail(j->e, EXIT_BAD_INPUT, "--joint: the least common denominator of the "
                    "quantiles %s passes 10^18: use quantiles of fewer digits", j->o->quantiles);
}

/* The joint selector, and the limits of the grid and the quantiles named. */
static int joint_prepare(quantile_job *j, const uint64_t *f)
{
    uint64_t sensitivity;
    if (check_grid_size(j) != 0) {
        return j->e->status;
    }
    if (dpsel_quantiles_joint_sensitivity(f, f + j->count, j->count, &sensitivity) != DPSEL_OK) {
        return refuse_joint_quantiles(j);
    }
    if (params_from_options(j->o, sensitivity, 0, &j->joint_params, j->e) != 0) {
        return j->e->status;
    }
    int rc = dpsel_selector_new(&j->joint_selector, &j->joint_params);
    return rc == DPSEL_OK ? 0 : cli_fail_library(j->e, "quantile --joint", rc);
}

/* The epsilon of the joint releases, once, and the accountant's line for
 * several. */
static int print_joint_epsilon(quantile_job *j)
{
    char epsilon[EPSILON_TEXT];
    if (epsilon_text(&j->joint_params, epsilon, j->e) != 0) {
        return j->e->status;
    }
    fprintf(stderr, "dpsel: quantiles %s jointly: %" PRIu64 " release%s, each epsilon <= %s "
            "for all %zu\n", j->o->quantiles, j->o->count, j->o->count == 1 ? "" : "s", epsilon,
            j->count);
    if (j->o->count == 1) {
        return 0;
    }
    return account_state(j->o, &j->joint_params, 1, j->o->count, DPSEL_NONADAPTIVE,
                         "joint releases", j->e);
}

/* Quantile i's values of the releases (release r's in released[r m + i]),
 * as release prints one quantile's. */
static int print_joint_quantile(quantile_job *j, const int64_t *released, size_t i)
{
    const options *o = j->o;
    if (o->json) {
        fputs("{\"quantile\": ", j->out);
        json_string(j->out, j->q[i].text);
        fputs(o->count == 1 ? ", \"value\": " : ", \"values\": [", j->out);
    }
    for (uint64_t r = 0; r < o->count; r++) {
        if (print_value(j, released[r * j->count + i], r) != 0) {
            return j->e->status;
        }
    }
    if (o->json) {
        fputs(o->count == 1 ? "}\n" : "]}\n", j->out);
    }
    return 0;
}

/* A failed joint release or pmf: the quantiles and the grid were checked,
 * so DPSEL_ERANGE is the decay past DPSEL_JOINT_DECAY_MAX, a refusal of the
 * public parameters alone (never of the values), named with its fix. */
static int refuse_joint_decay(quantile_job *j, const char *what, int rc)
{
    if (rc != DPSEL_ERANGE) {
        return cli_fail_library(j->e, what, rc);
    }
    if (j->o->base_given) {
        return cli_fail(j->e, EXIT_BAD_INPUT, "--joint: base %" PRIu64 "/2^%u decays too fast "
                        "for the quantiles %s (B log2(1/beta) passes %u, B their least common "
                        "denominator): use a base nearer 1", j->o->base_x, j->o->base_y,
                        j->o->quantiles, DPSEL_JOINT_DECAY_MAX);
    }
    return cli_fail(j->e, EXIT_BAD_INPUT, "--joint: epsilon %s decays too fast for the "
                    "quantiles %s (B log2(1/beta) passes %u, B their least common "
                    "denominator): use an epsilon of at most 22, which every set of quantiles "
                    "takes", j->o->epsilon, j->o->quantiles, DPSEL_JOINT_DECAY_MAX);
}

/* The releases' cost (dpsel_quantiles_joint_select_cost) on the progress
 * line's stream, before the work: the values' count is the caller's own
 * input, as `pmf --exact` names its candidates. */
static void state_joint_cost(const quantile_job *j, const cli_progress *progress)
{
    uint64_t steps = 0, bytes = 0;
    if (dpsel_quantiles_joint_select_cost(j->count, j->m, (size_t)j->o->count, &steps, &bytes)
        != DPSEL_OK) {
        return;  /* m and count were checked: never */
    }
    char text[200];
    snprintf(text, sizeof text, "%zu quantiles of %zu values, %" PRIu64 " release%s: %" PRIu64
             " MPFR operations (a few tens of ns each) and at most %" PRIu64 " MB",
             j->count, j->m, j->o->count, j->o->count == 1 ? "" : "s", steps,
             bytes / 1000000 + (bytes % 1000000 != 0));
    cli_progress_cost(progress, text);
}

/* --count joint releases of all the quantiles, then each quantile's values. */
static int joint_releases(quantile_job *j, const uint64_t *f, int64_t *released)
{
    dpsel_rng rng;
    memset(&rng, 0, sizeof rng);  /* wiped at the end, drawn from or not */
    int status = init_rng(j->o, &rng, j->e);
    if (status == 0) {
        cli_progress progress;
        cli_progress_start(&progress, "quantile --joint", j->o->progress, 1);
        state_joint_cost(j, &progress);
        /* the values sorted and the forward tables made once for all */
        int rc = dpsel_quantiles_joint_select_many_progress(
            j->joint_selector, f, f + j->count, j->count, j->points, j->m, j->grid.lower,
            j->grid.upper, &rng, (size_t)j->o->count, released, cli_progress_report, &progress);
        cli_progress_stop(&progress, rc == DPSEL_OK);
        if (rc != DPSEL_OK) {
            status = refuse_joint_decay(j, "quantile --joint", rc);
        }
    }
    dpsel_rng_wipe(&rng);
    for (size_t i = 0; i < j->count && status == 0; i++) {
        status = print_joint_quantile(j, released, i);
    }
    return status == 0 ? print_joint_epsilon(j) : status;
}

/* --joint --pmf: each quantile's marginal (joint_pmf_command.c). */
static int joint_distributions(quantile_job *j, const uint64_t *f)
{
    const char **texts = malloc(j->count * sizeof *texts);
    if (texts == NULL) {
        return cli_fail(j->e, EXIT_CANNOT_COMPLETE, "out of memory");
    }
    for (size_t i = 0; i < j->count; i++) {
        texts[i] = j->q[i].text;
    }
    joint_release release = { .grid = &j->grid, .points = j->points, .m = j->m, .texts = texts,
                              .a = f, .b = f + j->count, .count = j->count,
                              .params = &j->joint_params };
    dpsel_joint_pmf *pmf = NULL;
    int rc = joint_pmf_make(j->o, &release, &pmf);
    int status = rc == DPSEL_OK ? joint_pmf_print(j->o, &release, pmf, j->out, j->e)
                                : refuse_joint_decay(j, "quantile --joint --pmf", rc);
    dpsel_joint_pmf_free(pmf);
    free(texts);
    return status;
}

static int joint_release_all(quantile_job *j)
{
    uint64_t *f = joint_fractions(j);
    int64_t *released = NULL;
    if (f != NULL && j->o->count <= SIZE_MAX / sizeof *released / j->count) {
        released = malloc(j->o->count * j->count * sizeof *released);
    }
    int status = released == NULL ? cli_fail(j->e, EXIT_CANNOT_COMPLETE, "out of memory")
                                   : joint_prepare(j, f);
    if (status == 0) {
        status = j->o->pmf ? joint_distributions(j, f) : joint_releases(j, f, released);
    }
    free(released);
    free(f);
    return status;
}

static void job_free(quantile_job *j)
{
    for (size_t i = 0; i < j->count; i++) {
        dpsel_selector_free(j->q[i].selector);
        dpsel_quantile_runs_free(j->q[i].runs);
    }
    dpsel_selector_free(j->joint_selector);
    free(j->q);
    free(j->list);
    free(j->points);
}

int quantile_print(const options *o, FILE *out, cli_error *error)
{
    quantile_job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.out = out;
    j.e = error;
    int status = parse_quantiles(&j);
    if (status == 0) {
        status = make_grid(&j);
    }
    if (status == 0) {
        status = read_values(&j);
    }
    if (o->joint) {
        status = status == 0 ? joint_release_all(&j) : status;
    } else {
        for (size_t i = 0; i < j.count && status == 0; i++) {
            status = prepare(&j, &j.q[i]);
        }
        if (status == 0) {
            status = o->pmf ? distributions(&j) : release_all(&j);
        }
    }
    job_free(&j);
    return status;
}
