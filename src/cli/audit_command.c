/* SPDX-License-Identifier: ISC */
/*
 * dpsel audit FILE_A FILE_B: the auditor's check that a mechanism and its
 * parameters deliver the epsilon they claim.  FILE_A and FILE_B hold the
 * scores of two neighbouring datasets (the same labels, in any order); the
 * library (dpsel_audit) computes both output distributions and proves the
 * largest privacy loss max_r |ln(P_a(r) / P_b(r))| below the realised
 * epsilon, or above it.  The neighbour check is reported beside it, and a
 * pair that is not neighbours for the parameters gets a warning: its loss
 * is compared with the claimed epsilon all the same, which is how a
 * sensitivity too small for the data shows up as a broken bound.  With
 * --task, the scores of both histograms are built once FILE_B's rows are in
 * FILE_A's order (a median depends on the order of the bins).
 */
#include "audit_command.h"
#include "progress.h"
#include "shared.h"
#include "text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The two files, and their scores candidate by candidate in FILE_A's order. */
typedef struct {
    const candidates *a;
    const char *name_a;
    const char *name_b;
    int64_t *scores_a;
    int64_t *scores_b;
} pair;

/* The sensitivity and the distance in the scores' own unit (units_text). */
typedef struct {
    char sensitivity[UNITS_TEXT];
    char distance[UNITS_TEXT];
} unit_texts;

/* The mechanism and its parameters as printed: EM's and PF's base and gap
 * cap, or report noisy max's exact scale W/P (no gap cap), in text and in
 * JSON; the epsilon, realised (rounded up) or RNM's decimal as requested. */
typedef struct {
    const char *name;
    char text[96];      /* "base x/2^y\nsensitivity" lines up to the gap cap's value */
    char json[160];     /* "base" to "gap_cap" members */
    const char *epsilon;
    char realised[EPSILON_TEXT];
} setting;

/* A pointer to one label of a candidates list, for sorting and search. */
typedef char *const *label_ref;

static const char *const verdict_names[3] = { "holds", "broken", "undecided" };
static const int verdict_status[3] = { AUDIT_HOLDS, AUDIT_BROKEN, AUDIT_UNDECIDED };

static int compare_refs(const void *x, const void *y)
{
    return strcmp(**(const label_ref *)x, **(const label_ref *)y);
}

/* scores_b[i] = the score in b of a's candidate i.  Labels are unique in
 * each file, so equal counts and every label of a found in b make the two
 * label sets equal. */
static int match_labels(const candidates *a, const char *name_a, const candidates *b,
                        const char *name_b, int64_t *scores_b, cli_error *e)
{
    if (a->count != b->count) {
        return cli_fail(e, EXIT_BAD_INPUT,
                        "%s has %zu candidates but %s has %zu: audit needs the same labels",
                        name_b, b->count, name_a, a->count);
    }
    label_ref *refs = malloc(b->count * sizeof *refs);
    if (refs == NULL) {
        return cli_fail(e, EXIT_CANNOT_COMPLETE, "out of memory for %zu candidates", b->count);
    }
    for (size_t i = 0; i < b->count; i++) {
        refs[i] = &b->labels[i];
    }
    qsort(refs, b->count, sizeof *refs, compare_refs);
    int status = 0;
    for (size_t i = 0; i < a->count && status == 0; i++) {
        label_ref key = &a->labels[i];
        const label_ref *found = bsearch(&key, refs, b->count, sizeof *refs, compare_refs);
        if (found == NULL) {
            status = cli_fail_at(e, EXIT_BAD_INPUT, name_b, 0,
                                 "no candidate with the label of %s:%zu: audit needs the same "
                                 "labels", name_a, a->lines[i]);
        } else {
            scores_b[i] = b->scores[*found - b->labels];
        }
    }
    free(refs);
    return status;
}

/* The first candidate that breaks the neighbour relation: a distance above
 * D, else (monotonic) a difference against the sign of the first one. */
static size_t first_offender(const int64_t *a, const int64_t *b, size_t n,
                             const dpsel_params *params)
{
    int sign = 0;
    size_t against = n;
    for (size_t r = 0; r < n; r++) {
        uint64_t d = a[r] <= b[r] ? (uint64_t)b[r] - (uint64_t)a[r]
                                  : (uint64_t)a[r] - (uint64_t)b[r];
        int s = (b[r] > a[r]) - (b[r] < a[r]);
        if (d > params->sensitivity) {
            return r;
        }
        if (sign == 0) {
            sign = s;
        } else if (s == -sign && against == n) {
            against = r;
        }
    }
    return against;
}

/* Names the first candidate that moves by more than the sensitivity by its
 * line, not its label or scores (data). */
static void warn_not_neighbours(const dpsel_params *params, const pair *p, const unit_texts *u)
{
    size_t r = first_offender(p->scores_a, p->scores_b, p->a->count, params);
    fprintf(stderr, "dpsel: warning: %s and %s are not neighbours for sensitivity %s%s: the "
            "candidate of %s:%zu moves by more; the loss is compared with the claimed epsilon "
            "all the same\n", p->name_a, p->name_b, u->sensitivity,
            params->monotonic ? ", monotonic" : "", p->name_a, p->a->lines[r]);
}

static const char *direction_name(const dpsel_audit_result *result)
{
    return result->b_at_least_a && result->b_at_most_a ? "b = a"
         : result->b_at_least_a ? "b >= a"
         : result->b_at_most_a ? "b <= a" : "mixed";
}

static void print_text(FILE *out, const dpsel_params *p, const setting *m,
                       const dpsel_audit_result *result, const unit_texts *u, const char *label)
{
    fprintf(out, "mechanism %s\n%s\nsensitivity %s\nmonotonic %s\n"
            "gap cap %s\ndistance %s\ndirection %s\nneighbours %s\n"
            "loss >= %s\nloss <= %s\noutput %s\nratio %s\nepsilon %s %s\n"
            "decided exactly %zu\nverdict %s\n",
            m->name, m->text, u->sensitivity, p->monotonic ? "yes" : "no",
            m->text + strlen(m->text) + 1, u->distance, direction_name(result),
            result->neighbours ? "yes" : "no", result->loss_lower, result->loss_upper, label,
            result->a_over_b ? "P_a/P_b" : "P_b/P_a", m->epsilon == m->realised ? "<=" : "=",
            m->epsilon, result->decided_exactly, verdict_names[result->verdict]);
}

static void print_json(FILE *out, const dpsel_params *p, const setting *m,
                       const dpsel_audit_result *result, const unit_texts *u, const char *label)
{
    /* integers that may exceed 2^53 (and decimals) are strings */
    fprintf(out, "{\"mechanism\": \"%s\", %s, "
            "\"sensitivity\": \"%s\", \"monotonic\": %s, \"gap_cap\": %s, "
            "\"distance\": \"%s\", \"direction\": \"%s\", \"neighbours\": %s, "
            "\"loss\": [\"%s\", \"%s\"], \"output\": ",
            m->name, m->json, u->sensitivity, p->monotonic ? "true" : "false",
            m->json + strlen(m->json) + 1, u->distance,
            direction_name(result), result->neighbours ? "true" : "false",
            result->loss_lower, result->loss_upper);
    json_string(out, label);
    fprintf(out, ", \"output_index\": %zu, \"ratio\": \"%s\", \"epsilon\": ", result->output,
            result->a_over_b ? "P_a/P_b" : "P_b/P_a");
    json_string(out, m->epsilon);
    fprintf(out, ", \"decided_exactly\": %zu, \"verdict\": \"%s\"}\n", result->decided_exactly,
            verdict_names[result->verdict]);
}

/* Two strings in one buffer, the second after the first's NUL. */
static void two_texts(char *buf, size_t size, const char *first, const char *second)
{
    size_t at = (size_t)snprintf(buf, size, "%s", first) + 1;
    snprintf(buf + at, size - at, "%s", second);
}

/* The setting of EM and PF (the realised epsilon, rounded up) or of RNM
 * (its scale, the epsilon as requested): 0, or a library error code. */
static int setting_of(const options *o, const dpsel_params *p, setting *m)
{
    char first[96], second[32];
    if (o->mechanism == DPSEL_RNM) {
        uint64_t w = 0, q = 0;
        int rc = dpsel_rnm_scale(o->epsilon, o->sensitivity, o->monotonic, &w, &q);
        m->name = "rnm";
        m->epsilon = o->epsilon;
        snprintf(first, sizeof first, "scale %" PRIu64 "/%" PRIu64, w, q);
        two_texts(m->text, sizeof m->text, first, "none");
        snprintf(first, sizeof first, "\"base\": null, \"scale\": \"%" PRIu64 "/%" PRIu64 "\"",
                 w, q);
        two_texts(m->json, sizeof m->json, first, "null");
        return rc;
    }
    m->name = o->mechanism == DPSEL_EM ? "em" : "pf";
    m->epsilon = m->realised;
    snprintf(second, sizeof second, "%" PRIu64, p->gap_cap);
    snprintf(first, sizeof first, "base %" PRIu64 "/2^%u", p->x, p->y);
    two_texts(m->text, sizeof m->text, first, second);
    snprintf(first, sizeof first, "\"base\": {\"x\": \"%" PRIu64 "\", \"y\": %u}", p->x, p->y);
    two_texts(m->json, sizeof m->json, first, second);
    return dpsel_params_epsilon(p, EPSILON_DIGITS, m->realised, sizeof m->realised);
}

/* With --task: both histograms' scores, built in FILE_A's order. */
static int build_task_scores(const options *o, pair *p, cli_error *e)
{
    size_t n = p->a->count;
    int rc = dpsel_task_scores(o->task, p->scores_a, n, p->scores_a);
    if (rc == DPSEL_OK) {
        rc = dpsel_task_scores(o->task, p->scores_b, n, p->scores_b);
    }
    /* task_scores checked both files' counts: a failure here is a bug */
    return rc == DPSEL_OK ? 0 : cli_fail(e, EXIT_CANNOT_COMPLETE, "%s, %s: --task: %s",
                                         p->name_a, p->name_b, dpsel_strerror(rc));
}

static int audit_scores(const options *o, const dpsel_params *params, const pair *p,
                        FILE *out, cli_error *e)
{
    dpsel_audit_result result;
    setting m;
    cli_progress progress;
    cli_progress_start(&progress, "audit", o->progress, 1);
    int rc = o->mechanism == DPSEL_RNM
             ? dpsel_rnm_audit(&result, o->epsilon, o->sensitivity, o->monotonic, p->scores_a,
                               p->scores_b, p->a->count, cli_progress_report, &progress)
             : dpsel_audit_progress(&result, params, o->mechanism, p->scores_a, p->scores_b,
                                    p->a->count, cli_progress_report, &progress);
    cli_progress_stop(&progress, rc == DPSEL_OK);
    if (rc == DPSEL_OK) {
        rc = setting_of(o, params, &m);
    }
    if (rc != DPSEL_OK) {
        return cli_fail(e, exit_status_of_error(rc), "%s, %s: audit: %s", p->name_a, p->name_b,
                        dpsel_strerror(rc));
    }
    unit_texts u;
    if (units_text(o, params->sensitivity, u.sensitivity, e) != 0
        || units_text(o, result.distance, u.distance, e) != 0) {
        return e->status;
    }
    const char *label = p->a->labels[result.output];
    if (o->json) {
        print_json(out, params, &m, &result, &u, label);
    } else {
        print_text(out, params, &m, &result, &u, label);
    }
    if (!result.neighbours) {
        warn_not_neighbours(params, p, &u);
    }
    return verdict_status[result.verdict];
}

int audit_print(const options *o, const dpsel_params *params, const candidates *a,
                const char *name_a, const candidates *b, const char *name_b, FILE *out,
                cli_error *e)
{
    pair p = { a, name_a, name_b, calloc(a->count, sizeof *p.scores_a),
               calloc(a->count, sizeof *p.scores_b) };
    int status = p.scores_a == NULL || p.scores_b == NULL
               ? cli_fail(e, EXIT_CANNOT_COMPLETE, "out of memory for %zu candidates", a->count)
               : match_labels(a, name_a, b, name_b, p.scores_b, e);
    if (status == 0) {
        memcpy(p.scores_a, a->scores, a->count * sizeof *p.scores_a);
        status = o->task_given ? build_task_scores(o, &p, e) : 0;
    }
    if (status == 0) {
        status = audit_scores(o, params, &p, out, e);
    }
    free(p.scores_a);
    free(p.scores_b);
    return status;
}
