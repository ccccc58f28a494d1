/* SPDX-License-Identifier: ISC */
/*
 * dpsel: exact differentially private selection from the command line.
 *   dpsel select [OPTIONS] [FILE]   one private choice (or --count N); PF
 *                                   streams a regular FILE (stream_select.c)
 *   dpsel pmf    [OPTIONS] [FILE]   the output distribution, exact or enclosed
 *   dpsel params [OPTIONS]          the exact privacy parameters
 *   dpsel curve  [OPTIONS] [FILE]   expected errors over epsilon (curve_command.c)
 *   dpsel audit  [OPTIONS] FILE_A FILE_B   the privacy loss of neighbours (audit_command.c)
 *   dpsel quantile [OPTIONS] [FILE] private quantiles of raw values (quantile_command.c)
 *   dpsel account [OPTIONS] RELEASE...  the privacy of releases together (account_command.c)
 * Output is assembled in memory and written only when the whole command has
 * succeeded: on any error, stdout stays empty, one line goes to stderr and
 * the exit status is 2 for bad input, 4 when the command could not complete
 * (status.h): every module records its problem in the run's cli_error,
 * which main alone prints.  A completed audit exits with its verdict (audit_command.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "account_command.h"
#include "audit_command.h"
#include "curve_command.h"
#include "dpsel.h"
#include "help.h"
#include "input.h"
#include "options.h"
#include "progress.h"
#include "quantile_command.h"
#include "shared.h"
#include "status.h"
#include "stream_select.h"
#include "text.h"
#include "top_command.h"
#include "utility_bound.h"

/* Everything a command needs, released by run_free. */
typedef struct {
    options opt;
    dpsel_params params;
    uint64_t rnm_w, rnm_p;   /* --mechanism rnm: the Laplace scale W / P */
    candidates cand;
    const char *file_name;   /* FILE as printed in messages */
    char file_quoted[QUOTED_MAX];
    candidates cand_b;       /* audit: FILE_B */
    const char *file_b_name;
    char file_b_quoted[QUOTED_MAX];
    FILE *out;            /* in-memory output, written on success */
    char *out_text;
    size_t out_size;
    cli_error error;      /* the problem that stopped the command */
} run;

static int out_of_memory(cli_error *e)
{
    return cli_fail(e, EXIT_CANNOT_COMPLETE, "out of memory");
}

/* EM's and PF's base-2 parameters; select with report noisy max checks its
 * own scale instead, so that its errors are its own. */
static int make_params(run *r)
{
    if (r->opt.mechanism == DPSEL_RNM) {   /* params keeps D and monotonic, for audit */
        r->params.sensitivity = r->opt.sensitivity;
        r->params.monotonic = r->opt.monotonic;
        return rnm_scale_from_options(&r->opt, &r->rnm_w, &r->rnm_p, &r->error);
    }
    return params_from_options(&r->opt, r->opt.sensitivity, r->opt.monotonic, &r->params,
                               &r->error);
}

/* Reads file into cand, scored for --task (see open_input). */
static int read_file(run *r, const char *file, candidates *cand, const char **name,
                     char *quoted)
{
    FILE *stream;
    int regular;
    int status = open_input(file, &stream, name, quoted, &regular, &r->error);
    if (status != 0) {
        return status;
    }
    score_format format = score_format_of(&r->opt);
    status = candidates_read(stream, *name, &format, cand, &r->error);
    close_input(stream);
    return status == 0 ? task_scores(&r->opt, cand, *name, &r->error) : status;
}

/* The longest decimal epsilon report noisy max takes (dpsel_rnm_scale),
 * printed whole in the accountant's line. */
#define RNM_EPSILON_SHOWN 4096

/* The selections a select command makes: --count lists of --top each. */
static uint64_t selections(const options *o)
{
    return o->count * o->top;  /* both below 2^32 */
}

/* A JSON array of labels or indices first .. first + count - 1. */
static void print_json_list(run *r, const size_t *chosen, char *const *labels, uint64_t first,
                            uint64_t count)
{
    fputc('[', r->out);
    for (uint64_t i = first; i < first + count; i++) {
        fputs(i == first ? "" : ", ", r->out);
        if (labels != NULL) {
            json_string(r->out, labels[i]);
        } else {
            fprintf(r->out, "%zu", chosen[i]);  /* below 2^53: lines of a file */
        }
    }
    fputc(']', r->out);
}

/* The lists of choices: flat for one list or one choice per list, else a
 * list of lists. */
static void print_json_lists(run *r, const size_t *chosen, char *const *labels)
{
    const options *o = &r->opt;
    if (o->count == 1 || o->top == 1) {
        print_json_list(r, chosen, labels, 0, selections(o));
        return;
    }
    fputc('[', r->out);
    for (uint64_t list = 0; list < o->count; list++) {
        fputs(list == 0 ? "" : ", ", r->out);
        print_json_list(r, chosen, labels, list * o->top, o->top);
    }
    fputc(']', r->out);
}

/* labels[i] is the label of selection i (list i / top, rank i % top). */
static void print_choices(run *r, const size_t *chosen, char *const *labels)
{
    const options *o = &r->opt;
    if (!o->json) {
        for (uint64_t i = 0; i < selections(o); i++) {
            fprintf(r->out, "%s\n", labels[i]);
        }
    } else if (selections(o) == 1) {
        fputs("{\"choice\": ", r->out);
        json_string(r->out, labels[0]);
        fprintf(r->out, ", \"index\": %zu}\n", chosen[0]);  /* below 2^53: lines of a file */
    } else {
        fputs("{\"choices\": ", r->out);
        print_json_lists(r, chosen, labels);
        fputs(", \"indices\": ", r->out);
        print_json_lists(r, chosen, NULL);
        fputs("}\n", r->out);
    }
}

/* One list: a choice, or the --top best by peeling. */
static int draw_list(run *r, const dpsel_selector *selector, dpsel_rng *rng, size_t *list)
{
    const options *o = &r->opt;
    if (o->mechanism == DPSEL_RNM) {
        return dpsel_rnm_select_top(o->epsilon, o->sensitivity, o->monotonic, r->cand.scores,
                                    r->cand.count, o->top, rng, list);
    }
    if (o->top > 1) {
        return dpsel_select_top(selector, o->mechanism, r->cand.scores, r->cand.count, o->top,
                                rng, list);
    }
    return (o->hardened ? dpsel_select_hardened : dpsel_select)(
        selector, o->mechanism, r->cand.scores, r->cand.count, rng, list);
}

static int draw_all(run *r, const dpsel_selector *selector, dpsel_rng *rng, size_t *chosen)
{
    if (top_check(&r->opt, r->cand.count, r->file_name, &r->error) != 0) {
        return r->error.status;
    }
    cli_progress progress;
    cli_progress_start(&progress, "select", r->opt.progress, r->opt.count);
    int rc = DPSEL_OK;
    for (uint64_t i = 0; i < r->opt.count && rc == DPSEL_OK; i++) {
        cli_progress_step(&progress, i);
        rc = draw_list(r, selector, rng, &chosen[i * r->opt.top]);
    }
    cli_progress_stop(&progress, rc == DPSEL_OK);
    return rc == DPSEL_OK ? 0 : cli_fail_library(&r->error, "select", rc);
}

static int select_in_memory(run *r, FILE *stream, const dpsel_selector *selector,
                            dpsel_rng *rng, size_t *chosen, char **labels)
{
    score_format format = score_format_of(&r->opt);
    int status = candidates_read(stream, r->file_name, &format, &r->cand, &r->error);
    if (status == 0) {
        status = task_scores(&r->opt, &r->cand, r->file_name, &r->error);
    }
    if (status == 0) {
        status = init_rng(&r->opt, rng, &r->error);
    }
    if (status == 0) {
        status = draw_all(r, selector, rng, chosen);
    }
    for (uint64_t i = 0; i < selections(&r->opt) && status == 0; i++) {
        labels[i] = strdup(r->cand.labels[chosen[i]]);
        status = labels[i] == NULL ? out_of_memory(&r->error) : 0;
    }
    return status;
}

/* PF's race over a regular file in passes (stream_select.h): all the
 * checks of the in-memory path, and memory that does not grow with the
 * candidates. */
static int select_streamed(run *r, FILE *stream, const dpsel_selector *selector,
                           dpsel_rng *rng, size_t *chosen, char **labels)
{
    streamed s;
    score_format format = score_format_of(&r->opt);
    streamed_init(&s, stream, r->file_name, &format, &r->error);
    s.progress = r->opt.progress;
    int status = streamed_check(&s);
    if (status == 0) {
        status = init_rng(&r->opt, rng, &r->error);
    }
    if (status == 0) {
        status = streamed_select(&s, selector, rng, r->opt.count, chosen, labels);
    }
    streamed_free(&s);
    return status;
}

/* select streams FILE when it can: PF of one choice per list without
 * --hardened or --task, a regular file (it is read more than once), and a
 * decay table that allows the race. */
static int can_stream(const options *o, const dpsel_selector *selector, int regular)
{
    dpsel_pf_stream probe;
    return o->mechanism == DPSEL_PF && o->top == 1 && !o->hardened && !o->task_given && regular
        && dpsel_pf_stream_start(&probe, selector, 0) == DPSEL_OK;
}

/* The accountant's line on stderr: --count independent lists (fixed in
 * advance), each --top rounds that depend on the earlier ones.  Report
 * noisy max realises its decimal epsilon exactly ("= EPS"); EM and PF their
 * base's, rounded up ("<= EPS"). */
static int print_composition(run *r)
{
    const options *o = &r->opt;
    int rnm = o->mechanism == DPSEL_RNM;
    char realised[EPSILON_TEXT], what[160 + RNM_EPSILON_SHOWN];
    int status = rnm ? 0 : epsilon_text(&r->params, realised, &r->error);
    if (status != 0) {
        return status;
    }
    char each[8 + RNM_EPSILON_SHOWN];
    snprintf(each, sizeof each, "%s %.*s", rnm ? "=" : "<=", RNM_EPSILON_SHOWN,
             rnm ? o->epsilon : realised);
    if (o->top == 1) {
        snprintf(what, sizeof what, "%" PRIu64 " selections, each epsilon %s", o->count, each);
    } else {
        snprintf(what, sizeof what, "%" PRIu64 " list%s of the top %" PRIu64 " (%" PRIu64
                 " selections, each epsilon %s)", o->count, o->count == 1 ? "" : "s", o->top,
                 selections(o), each);
    }
    dpsel_composition composition = o->top == 1 ? DPSEL_NONADAPTIVE : DPSEL_ADAPTIVE;
    return rnm ? account_state_decimal(o, o->epsilon, selections(o), composition, what, &r->error)
               : account_state(o, &r->params, 1, selections(o), composition, what, &r->error);
}

static int command_select(run *r)
{
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    memset(&rng, 0, sizeof rng);  /* wiped at the end, drawn from or not */
    size_t *chosen = calloc(selections(&r->opt), sizeof *chosen);
    char **labels = calloc(selections(&r->opt), sizeof *labels);
    if (chosen == NULL || labels == NULL) {
        free(chosen);
        free(labels);
        return cli_fail(&r->error, EXIT_CANNOT_COMPLETE, "out of memory for --count %" PRIu64
                        " x --top %" PRIu64, r->opt.count, r->opt.top);
    }
    /* report noisy max takes its decimal epsilon, not a selector */
    int rc = r->opt.mechanism == DPSEL_RNM ? DPSEL_OK : dpsel_selector_new(&selector, &r->params);
    FILE *stream = NULL;
    int regular = 0;
    int status = rc == DPSEL_OK ? open_input(r->opt.file, &stream, &r->file_name,
                                             r->file_quoted, &regular, &r->error)
                                : cli_fail_library(&r->error, "select", rc);
    if (status == 0) {
        status = (can_stream(&r->opt, selector, regular) ? select_streamed : select_in_memory)(
            r, stream, selector, &rng, chosen, labels);
        close_input(stream);
    }
    if (status == 0 && selections(&r->opt) > 1) {
        status = print_composition(r);
    }
    if (status == 0) {
        print_choices(r, chosen, labels);
    }
    for (uint64_t i = 0; i < selections(&r->opt); i++) {
        free(labels[i]);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    free(chosen);
    free(labels);
    return status;
}

/* Report noisy max: its exact scale, and the epsilon as requested (realised
 * exactly); no base and no gap cap. */
static void print_rnm_pmf_head(run *r)
{
    const options *o = &r->opt;
    if (o->json) {
        fprintf(r->out, "{\"mechanism\": \"rnm\", \"scale\": \"%" PRIu64 "/%" PRIu64 "\", \"epsilon\": ",
                r->rnm_w, r->rnm_p);
        json_string(r->out, o->epsilon);
        fprintf(r->out, ", \"resolution\": \"%s\", \"candidates\": [", score_unit_text(o));
    } else {
        fprintf(r->out, "# mechanism rnm, Laplace scale %" PRIu64 "/%" PRIu64 ", epsilon = %s "
                "(realised exactly), resolution %s\nlabel,score,lower,upper,probability\n",
                r->rnm_w, r->rnm_p, o->epsilon, score_unit_text(o));
    }
}

static void print_pmf_head(run *r, const char *epsilon)
{
    const options *o = &r->opt;
    if (o->mechanism == DPSEL_RNM) {
        print_rnm_pmf_head(r);
    } else if (o->json) {
        fprintf(r->out, "{\"mechanism\": \"%s\", \"base\": ", mechanism_name(o->mechanism));
        print_base(r->out, &r->params);
        fprintf(r->out, ", \"epsilon\": \"%s\", \"gap_cap\": %" PRIu64 ", \"resolution\": \"%s\", "
                "\"candidates\": [", epsilon, r->params.gap_cap, score_unit_text(o));
    } else {
        fprintf(r->out, "# mechanism %s, base %" PRIu64 "/2^%u, epsilon <= %s, gap cap %" PRIu64
                ", resolution %s\nlabel,score,lower,upper,probability\n",
                mechanism_name(o->mechanism), r->params.x, r->params.y, epsilon,
                r->params.gap_cap, score_unit_text(o));
    }
}

/* The scores in their own unit; the expected error (text[n]) in it too. */
static int print_pmf(run *r, const pmf_text *text, const utility_tails *tails,
                     const char *epsilon)
{
    const options *o = &r->opt;
    size_t n = r->cand.count;
    print_pmf_head(r, epsilon);
    for (size_t i = 0; i < n; i++) {
        const pmf_text *t = &text[i];
        char score[UNITS_TEXT];
        if (score_text(o, r->cand.scores[i], score, &r->error) != 0) {
            return r->error.status;
        }
        if (o->json) {
            fputs(i == 0 ? "{\"label\": " : ", {\"label\": ", r->out);
            json_string(r->out, r->cand.labels[i]);
            fprintf(r->out, ", \"score\": \"%s\", \"probability\": \"%s\", "
                    "\"enclosure\": [\"%s\", \"%s\"]}", score, t->value, t->lower, t->upper);
        } else {
            /* the probability stays the last field, as scripts read it */
            fprintf(r->out, "%s,%s,%s,%s,%s\n", r->cand.labels[i], score, t->lower, t->upper,
                    t->value);
        }
    }
    const pmf_text *e = &text[n];
    fprintf(r->out, o->json ? "], \"expected_error\": \"%s\", "
                              "\"expected_error_enclosure\": [\"%s\", \"%s\"]"
                            : "# expected error %s in [%s, %s]\n",
            e->value, e->lower, e->upper);
    if (tails != NULL) {   /* EM's theorem; RNM has no base to state it with */
        utility_tails_print(r->out, o->json, o->mechanism, tails);
    }
    fputs(o->json ? "}\n" : "", r->out);
    return 0;
}

static int pmf_error(run *r, int code)
{
    if (code == DPSEL_ETOOLARGE && r->opt.mechanism == DPSEL_RNM) {   /* refused before work */
        return cli_fail_at(&r->error, exit_status_of_error(code), r->file_name, 0,
                           "pmf --mechanism rnm: the enclosure of %zu candidates is past its "
                           "limits (65536 candidates, about 2^35 bit operations, which grow "
                           "as n L^2 for L distinct scores: 500 distinct scores take about "
                           "10 s); give fewer candidates or distinct scores", r->cand.count);
    }
    return cli_fail_at(&r->error, exit_status_of_error(code), r->file_name, 0, "pmf: %s",
                       dpsel_strerror(code));
}

/* All the text first, so that a failure prints nothing on stdout. */
static int render_and_print_pmf(run *r, const dpsel_pmf *pmf, const char *epsilon)
{
    size_t n = r->cand.count;
    dpsel_format format = r->opt.exact ? DPSEL_RATIONAL : DPSEL_DECIMAL;
    pmf_text *text = calloc(n + 1, sizeof *text);
    size_t *first = first_of_equal_scores(r->cand.scores, n);
    int rc = text == NULL || first == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    for (size_t i = 0; i < n && rc == DPSEL_OK; i++) {
        /* candidates of one score have one probability: its text once */
        rc = first[i] == i ? pmf_text_make(pmf, i, n, format, &text[i])
                           : pmf_text_copy(&text[first[i]], &text[i]);
    }
    free(first);
    if (rc == DPSEL_OK) {
        rc = pmf_error_text_make(pmf, score_unit_text(&r->opt), format, &text[n]);
    }
    utility_tails tails;
    int rnm = r->opt.mechanism == DPSEL_RNM;
    int status = rc == DPSEL_OK && !rnm ? utility_tails_make(&r->opt, &r->params, &r->cand, text,
                                                             &tails, &r->error) : 0;
    if (rc == DPSEL_OK && status == 0) {
        status = print_pmf(r, text, rnm ? NULL : &tails, epsilon);
    }
    for (size_t i = 0; text != NULL && i <= n; i++) {
        pmf_text_free(&text[i]);
    }
    free(text);
    return rc == DPSEL_OK ? status : pmf_error(r, rc);
}

/* pmf --exact: refused before any work when the exact rationals are
 * beyond the library's limits (dpsel_pmf_exact_work). */
static int check_exact_size(run *r)
{
    uint64_t work = 0, limit = 0;
    int rc = dpsel_pmf_exact_work(&r->params, r->opt.mechanism, r->cand.scores, NULL,
                                  r->cand.count, &work, &limit);
    if (rc != DPSEL_OK) {
        return pmf_error(r, rc);
    }
    char size[32];
    snprintf(size, sizeof size, "%zu candidates", r->cand.count);
    return work <= limit ? 0
         : cli_exact_too_large(&r->error, r->file_name, "pmf --exact", size, work, limit);
}

static int command_pmf(run *r)
{
    if (r->opt.top > 1) {
        return top_pmf_print(&r->opt, &r->params, &r->cand, r->file_name, r->out, &r->error);
    }
    char epsilon[EPSILON_TEXT] = "";
    dpsel_pmf *pmf = NULL;
    int rnm = r->opt.mechanism == DPSEL_RNM;   /* its epsilon is printed as requested */
    int status = rnm ? 0 : epsilon_text(&r->params, epsilon, &r->error);
    if (status == 0 && r->opt.exact) {
        status = check_exact_size(r);
    }
    if (status != 0) {
        return status;
    }
    cli_progress progress;
    cli_progress_start(&progress, "pmf", r->opt.progress, 1);
    int rc = rnm ? dpsel_rnm_pmf_new(&pmf, r->opt.epsilon, r->opt.sensitivity, r->opt.monotonic,
                                     r->cand.scores, NULL, r->cand.count, cli_progress_report,
                                     &progress)
                 : dpsel_pmf_new_progress(&pmf, &r->params, r->opt.mechanism, r->cand.scores,
                                          NULL, r->cand.count, cli_progress_report, &progress);
    cli_progress_stop(&progress, rc == DPSEL_OK);
    if (rc != DPSEL_OK) {
        return pmf_error(r, rc);
    }
    status = render_and_print_pmf(r, pmf, epsilon);
    dpsel_pmf_free(pmf);
    return status;
}

static int command_params(run *r)
{
    char epsilon[EPSILON_TEXT];
    const dpsel_params *p = &r->params;
    int status = epsilon_text(p, epsilon, &r->error);
    if (status != 0) {
        return status;
    }
    if (r->opt.json) {
        fputs("{\"base\": ", r->out);
        print_base(r->out, &r->params);
        fprintf(r->out, ", \"epsilon\": \"%s\", \"epsilon_requested\": ", epsilon);
        if (r->opt.epsilon != NULL) {
            json_string(r->out, r->opt.epsilon);
        } else {
            fputs("null", r->out);
        }
        fprintf(r->out, ", \"sensitivity\": \"%" PRIu64 "\", \"resolution\": \"%s\", "
                "\"monotonic\": %s, \"gap_cap\": %" PRIu64 "}\n", p->sensitivity,
                score_unit_text(&r->opt), p->monotonic ? "true" : "false", p->gap_cap);
    } else {
        fprintf(r->out, "base %" PRIu64 "/2^%u\nepsilon <= %s\n", p->x, p->y, epsilon);
        if (r->opt.epsilon != NULL) {
            fprintf(r->out, "epsilon requested %s\n", r->opt.epsilon);
        }
        fprintf(r->out, "sensitivity %" PRIu64 "\nresolution %s\nmonotonic %s\ngap cap %" PRIu64 "\n",
                p->sensitivity, score_unit_text(&r->opt), p->monotonic ? "yes" : "no", p->gap_cap);
    }
    return 0;
}

static int execute(run *r)
{
    if (r->opt.cmd == COMMAND_QUANTILE) {
        return quantile_print(&r->opt, r->out, &r->error);  /* its own parameters and FILE */
    }
    if (r->opt.cmd == COMMAND_ACCOUNT) {
        return account_print(&r->opt, r->out, &r->error);   /* releases, no FILE */
    }
    int status = r->opt.cmd == COMMAND_CURVE ? 0 : make_params(r);
    /* select reads its FILE itself: it may stream it */
    if (status == 0 && r->opt.cmd != COMMAND_PARAMS && r->opt.cmd != COMMAND_SELECT) {
        status = read_file(r, r->opt.file, &r->cand, &r->file_name, r->file_quoted);
    }
    if (status == 0 && r->opt.cmd == COMMAND_AUDIT) {
        /* FILE_B, scored like FILE_A */
        status = read_file(r, r->opt.file_b, &r->cand_b, &r->file_b_name, r->file_b_quoted);
    }
    if (status != 0) {
        return status;
    }
    switch (r->opt.cmd) {
    case COMMAND_SELECT: return command_select(r);
    case COMMAND_PMF: return command_pmf(r);
    case COMMAND_CURVE:
        return curve_print(&r->opt, &r->cand, r->file_name, r->out, &r->error);
    case COMMAND_AUDIT:
        return audit_print(&r->opt, &r->params, &r->cand, r->file_name, &r->cand_b,
                           r->file_b_name, r->out, &r->error);
    default: return command_params(r);
    }
}

/* Success and an audit's verdicts have their output; failures have none. */
static int has_output(int status)
{
    return status == 0 || status == AUDIT_BROKEN || status == AUDIT_UNDECIDED;
}

int main(int argc, char **argv)
{
    run r;
    memset(&r, 0, sizeof r);
    if (argc < 2) {
        return help_print_short_usage(stderr);
    }
    if (options_parse(argc, argv, &r.opt, &r.error) != 0) {
        return cli_report(&r.error);
    }
    r.out = open_memstream(&r.out_text, &r.out_size);
    if (r.out == NULL) {
        out_of_memory(&r.error);
        return cli_report(&r.error);
    }
    int status = 0;
    if (r.opt.help || r.opt.version) {
        help_print(r.out, &r.opt);
    } else {
        status = execute(&r);
    }
    candidates_free(&r.cand);
    candidates_free(&r.cand_b);
    if (fclose(r.out) != 0 && has_output(status)) {
        status = cli_fail(&r.error, EXIT_CANNOT_COMPLETE, "out of memory for the output");
    }
    if (has_output(status) && fwrite(r.out_text, 1, r.out_size, stdout) != r.out_size) {
        status = cli_fail(&r.error, EXIT_CANNOT_COMPLETE, "cannot write the output");
    }
    free(r.out_text);
    mpfr_free_cache();  /* MPFR's constants, left to the host (the library's and ours) */
    if (has_output(status) && fflush(stdout) != 0) {
        status = cli_fail(&r.error, EXIT_CANNOT_COMPLETE, "cannot write the output: %s",
                          strerror(errno));
    }
    /* the one place a problem is printed */
    return r.error.status != 0 ? cli_report(&r.error) : status;
}
