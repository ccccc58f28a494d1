/* SPDX-License-Identifier: ISC */
/* `dpsel pmf --top K` (top_command.h): the tuples' texts first, then the
 * output, so that a failure prints nothing. */
#include "top_command.h"

#include <inttypes.h>
#include <stdlib.h>

#include "shared.h"
#include "text.h"

/* One tuple as text: its probability and enclosure. */
static int tuple_text(const dpsel_top_pmf *top, size_t t, dpsel_format format, pmf_text *text)
{
    int rc = dpsel_top_pmf_probability(top, t, format, &text->value);
    if (rc == DPSEL_OK) {
        rc = dpsel_top_pmf_probability_bounds(top, t, BOUND_DIGITS, &text->lower, &text->upper);
    }
    return rc;
}

static void print_head(const options *o, const dpsel_params *p, const char *epsilon, FILE *out)
{
    if (o->json) {
        fprintf(out, "{\"mechanism\": \"%s\", \"base\": ", mechanism_name(o->mechanism));
        print_base(out, p);
        fprintf(out, ", \"epsilon\": \"%s\", \"gap_cap\": %" PRIu64 ", \"resolution\": \"%s\", "
                "\"top\": %" PRIu64 ", \"tuples\": [", epsilon, p->gap_cap, score_unit_text(o),
                o->top);
    } else {
        fprintf(out, "# top %" PRIu64 ", mechanism %s, base %" PRIu64 "/2^%u, epsilon <= %s "
                "each round, gap cap %" PRIu64 ", resolution %s\nlabels,lower,upper,probability\n",
                o->top, mechanism_name(o->mechanism), p->x, p->y, epsilon, p->gap_cap,
                score_unit_text(o));
    }
}

/* Tuple t: its labels (and indices), then its texts. */
static void print_tuple(const options *o, const candidates *cand, size_t t,
                        const size_t *tuple, const pmf_text *text, FILE *out)
{
    if (o->json) {
        fputs(t == 0 ? "{\"labels\": [" : ", {\"labels\": [", out);
        for (uint64_t j = 0; j < o->top; j++) {
            fputs(j == 0 ? "" : ", ", out);
            json_string(out, cand->labels[tuple[j]]);
        }
        fputs("], \"indices\": [", out);
        for (uint64_t j = 0; j < o->top; j++) {
            fprintf(out, "%s%zu", j == 0 ? "" : ", ", tuple[j]);
        }
        fprintf(out, "], \"probability\": \"%s\", \"enclosure\": [\"%s\", \"%s\"]}", text->value,
                text->lower, text->upper);
    } else {
        for (uint64_t j = 0; j < o->top; j++) {
            fprintf(out, "%s%s", j == 0 ? "" : " > ", cand->labels[tuple[j]]);
        }
        /* the probability stays the last field, as scripts read it */
        fprintf(out, ",%s,%s,%s\n", text->lower, text->upper, text->value);
    }
}

static int print_all(const options *o, const dpsel_params *params, const candidates *cand,
                     const dpsel_top_pmf *top, const pmf_text *texts, cli_error *e, FILE *out)
{
    char epsilon[EPSILON_TEXT];
    size_t *tuple = malloc(o->top * sizeof *tuple);
    if (tuple == NULL) {
        return cli_fail(e, EXIT_CANNOT_COMPLETE, "out of memory");
    }
    int status = epsilon_text(params, epsilon, e);
    if (status == 0) {
        print_head(o, params, epsilon, out);
    }
    for (size_t t = 0; t < dpsel_top_pmf_count(top) && status == 0; t++) {
        int rc = dpsel_top_pmf_tuple(top, t, tuple);
        status = rc == DPSEL_OK ? 0 : cli_fail_library(e, "pmf --top", rc);
        if (status == 0) {
            print_tuple(o, cand, t, tuple, &texts[t], out);
        }
    }
    if (status == 0 && o->json) {
        fputs("]}\n", out);
    }
    free(tuple);
    return status;
}

/* The library's refusals, said in the options' words: too many tuples (no
 * top pmf), or exact rationals beyond the limits (a top pmf, its size). */
static int top_error(const options *o, const candidates *cand, const dpsel_top_pmf *top,
                     const char *file_name, int rc, cli_error *e)
{
    uint64_t work, bits;
    if (rc == DPSEL_ETOOLARGE && top == NULL) {
        return cli_fail_at(e, EXIT_BAD_INPUT, file_name, 0, "pmf --top %" PRIu64 ": %zu "
                           "candidates give more than 65536 ordered tuples", o->top, cand->count);
    }
    if (rc == DPSEL_ETOOLARGE && dpsel_top_pmf_exact_size(top, &work, &bits) == DPSEL_OK) {
        return cli_fail_at(e, EXIT_BAD_INPUT, file_name, 0, "pmf --top %" PRIu64 "%s: %zu "
                           "candidates need exact rationals of %" PRIu64 " bits in all and %"
                           PRIu64 " bits of pmf work, beyond the limits of %" PRIu64 " and %"
                           PRIu64 " (a few seconds): give fewer candidates or a smaller --top%s",
                           o->top, o->exact ? " --exact" : "", cand->count, bits, work,
                           DPSEL_TOP_PMF_EXACT_BITS_MAX, DPSEL_TOP_PMF_EXACT_WORK_MAX,
                           o->exact ? ", or leave out --exact (decimals and enclosures)" : "");
    }
    return cli_fail_at(e, exit_status_of_error(rc), file_name, 0, "pmf --top: %s",
                       dpsel_strerror(rc));
}

/* --exact: refused before any work when the first round alone passes the
 * top pmf's limits (dpsel_top_pmf_exact_bound); 1 then, with the error. */
static int exact_beyond_limits(const options *o, const dpsel_params *params,
                               const candidates *cand, const char *file_name, cli_error *e)
{
    uint64_t work = 0, bits = 0;
    int rc = dpsel_top_pmf_exact_bound(params, o->mechanism, cand->scores, cand->count, o->top,
                                       &work, &bits);
    if (rc != DPSEL_OK) {
        top_error(o, cand, NULL, file_name, rc, e);
        return 1;
    }
    if (work <= DPSEL_TOP_PMF_EXACT_WORK_MAX && bits <= DPSEL_TOP_PMF_EXACT_BITS_MAX) {
        return 0;
    }
    cli_fail_at(e, EXIT_BAD_INPUT, file_name, 0, "pmf --top %" PRIu64 " --exact: %zu candidates "
                "need exact rationals of at least %" PRIu64 " bits in all and %" PRIu64 " bits "
                "of pmf work, beyond the limits of %" PRIu64 " and %" PRIu64 ": give fewer "
                "candidates or a smaller --top, or leave out --exact (decimals and enclosures)",
                o->top, cand->count, bits, work, DPSEL_TOP_PMF_EXACT_BITS_MAX,
                DPSEL_TOP_PMF_EXACT_WORK_MAX);
    return 1;
}

int top_check(const options *o, size_t n, const char *file_name, cli_error *error)
{
    return o->top <= n ? 0 : cli_fail_at(error, EXIT_BAD_INPUT, file_name, 0, "--top %" PRIu64
                                         " exceeds the %zu candidates (give --top %zu or less)",
                                         o->top, n, n);
}

int top_pmf_print(const options *o, const dpsel_params *params, const candidates *cand,
                  const char *file_name, FILE *out, cli_error *error)
{
    if (top_check(o, cand->count, file_name, error) != 0) {
        return error->status;
    }
    if (o->exact && exact_beyond_limits(o, params, cand, file_name, error)) {
        return error->status;
    }
    dpsel_top_pmf *top = NULL;
    int rc = dpsel_top_pmf_new(&top, params, o->mechanism, cand->scores, cand->count, o->top);
    size_t count = dpsel_top_pmf_count(top);
    pmf_text *texts = rc == DPSEL_OK ? calloc(count, sizeof *texts) : NULL;
    if (rc == DPSEL_OK && texts == NULL) {
        rc = DPSEL_ENOMEM;
    }
    dpsel_format format = o->exact ? DPSEL_RATIONAL : DPSEL_DECIMAL;
    for (size_t t = 0; t < count && rc == DPSEL_OK; t++) {
        rc = tuple_text(top, t, format, &texts[t]);
    }
    int status = rc == DPSEL_OK ? print_all(o, params, cand, top, texts, error, out)
                                : top_error(o, cand, top, file_name, rc, error);
    for (size_t t = 0; texts != NULL && t < count; t++) {
        pmf_text_free(&texts[t]);
    }
    free(texts);
    dpsel_top_pmf_free(top);
    return status;
}
