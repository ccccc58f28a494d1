/*
 * dpsel: exact differentially private selection from the command line.
 *   dpsel select [OPTIONS] [FILE]   one private choice (or --count N)
 *   dpsel pmf    [OPTIONS] [FILE]   the exact output distribution
 *   dpsel params [OPTIONS]          the exact privacy parameters
 * Output is assembled in memory and written only when the whole command has
 * succeeded: on any error, stdout stays empty, one line goes to stderr and
 * the exit status is 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dpsel.h"
#include "input.h"
#include "options.h"
#include "text.h"

#define EXIT_BAD_INPUT 2
#define EPSILON_DIGITS 17
#define EPSILON_TEXT (EPSILON_DIGITS + 16)

static const char usage[] =
    "usage: dpsel select [OPTIONS] [FILE]   one private choice (or --count N)\n"
    "       dpsel pmf    [OPTIONS] [FILE]   the exact output distribution\n"
    "       dpsel params [OPTIONS]          the exact privacy parameters\n"
    "\n"
    "FILE (default: standard input) has one candidate per line, `label,score`\n"
    "or `score`; blank lines and lines starting with # are skipped, and the\n"
    "first line may be a header such as `label,score`.\n"
    "\n"
    "options:\n"
    "  --epsilon E         requested epsilon (a decimal); dpsel uses the largest\n"
    "                      realisable epsilon not above E\n"
    "  --base X/2^Y        the decay beta = X/2^Y per score unit instead\n"
    "  --sensitivity D     one person moves a score by at most D (default 1)\n"
    "  --monotonic         adding a person never lowers a score (halves epsilon)\n"
    "  --gap-cap C         clamp gaps at C (default: least C with beta^C <= 2^-64)\n"
    "  --mechanism pf|em   permute-and-flip (default) or exponential mechanism\n"
    "  --count N           select: N independent selections\n"
    "  --seed HEX          select: deterministic stream, FOR TESTS AND AUDITS ONLY\n"
    "  --exact             pmf: probabilities as exact rationals num/den\n"
    "  --json              machine-readable output\n"
    "  --help, --version\n";

/* Everything a command needs, released by run_free. */
typedef struct {
    options opt;
    dpsel_params params;
    candidates cand;
    const char *file_name;   /* FILE as printed in messages */
    char file_quoted[QUOTED_MAX];
    FILE *out;            /* in-memory output, written on success */
    char *out_text;
    size_t out_size;
} run;

static int report(const char *format, ...) __attribute__((format(printf, 1, 2)));

static int report(const char *format, ...)
{
    va_list args;
    fputs("dpsel: ", stderr);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    return EXIT_BAD_INPUT;
}

static int library_error(const char *what, int code)
{
    return report("%s: %s", what, dpsel_strerror(code));
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

static int make_params(run *r)
{
    const options *o = &r->opt;
    int rc;
    if (o->base_given) {
        rc = dpsel_params_from_base(&r->params, o->base_x, o->base_y, o->sensitivity, o->monotonic);
        if (rc != DPSEL_OK) {
            return report("--base %" PRIu64 "/2^%u: %s (need 1 <= Y <= 64 and 0 < X < 2^Y)",
                          o->base_x, o->base_y, dpsel_strerror(rc));
        }
    } else {
        rc = dpsel_params_from_epsilon(&r->params, o->epsilon, o->sensitivity, o->monotonic);
        if (rc != DPSEL_OK) {
            char quoted[QUOTED_MAX];
            return report("--epsilon '%s': %s", printable(o->epsilon, 0, quoted, sizeof quoted),
                          dpsel_strerror(rc));
        }
    }
    if (o->gap_cap != 0 && (rc = dpsel_params_set_gap_cap(&r->params, o->gap_cap)) != DPSEL_OK) {
        return library_error("--gap-cap", rc);
    }
    return 0;
}

static int read_candidates(run *r)
{
    char message[512];
    FILE *stream = stdin;
    r->file_name = "<stdin>";
    if (r->opt.file != NULL && strcmp(r->opt.file, "-") != 0) {
        r->file_name = printable(r->opt.file, 0, r->file_quoted, sizeof r->file_quoted);
        stream = fopen(r->opt.file, "r");
        if (stream == NULL) {
            return report("%s: cannot open: %s", r->file_name, strerror(errno));
        }
        struct stat info;
        if (fstat(fileno(stream), &info) == 0 && S_ISDIR(info.st_mode)) {
            fclose(stream);
            return report("%s: is a directory", r->file_name);
        }
    }
    int rc = candidates_read(stream, r->file_name, &r->cand, message, sizeof message);
    if (stream != stdin) {
        fclose(stream);
    }
    return rc == 0 ? 0 : report("%s", message);
}

/* The realised epsilon of params with the sensitivity multiplied by factor
 * (epsilon is linear in D: this is the total of `factor` releases). */
static int epsilon_text(const dpsel_params *params, uint64_t factor, char *buf)
{
    dpsel_params scaled = *params;
    if (factor > 1 && scaled.sensitivity > UINT64_MAX / factor) {
        strcpy(buf, "(too large to compute)");
        return 0;
    }
    scaled.sensitivity *= factor;
    int rc = dpsel_params_epsilon(&scaled, EPSILON_DIGITS, buf, EPSILON_TEXT);
    return rc == DPSEL_OK ? 0 : library_error("epsilon", rc);
}

static const char *mechanism_name(dpsel_mechanism m)
{
    return m == DPSEL_EM ? "em" : "pf";
}

static int init_rng(const options *o, dpsel_rng *rng)
{
    if (o->seed_size == 0) {
        return dpsel_rng_init_os(rng) == DPSEL_OK ? 0 : report("cannot open the OS random source");
    }
    fputs("dpsel: warning: --seed gives a deterministic stream that anyone with the seed "
          "can replay: for tests and reproducible audits only, never a real release\n", stderr);
    int rc = dpsel_rng_init_seeded(rng, o->seed, o->seed_size);
    return rc == DPSEL_OK ? 0 : library_error("--seed", rc);
}

static void print_choices(run *r, const size_t *chosen)
{
    const options *o = &r->opt;
    if (!o->json) {
        for (uint64_t i = 0; i < o->count; i++) {
            fprintf(r->out, "%s\n", r->cand.labels[chosen[i]]);
        }
    } else if (o->count == 1) {
        fputs("{\"choice\": ", r->out);
        json_string(r->out, r->cand.labels[chosen[0]]);
        fprintf(r->out, ", \"index\": %zu}\n", chosen[0]);
    } else {
        fputs("{\"choices\": [", r->out);
        for (uint64_t i = 0; i < o->count; i++) {
            fputs(i == 0 ? "" : ", ", r->out);
            json_string(r->out, r->cand.labels[chosen[i]]);
        }
        fputs("], \"indices\": [", r->out);
        for (uint64_t i = 0; i < o->count; i++) {
            fprintf(r->out, "%s%zu", i == 0 ? "" : ", ", chosen[i]);
        }
        fputs("]}\n", r->out);
    }
}

static int draw_all(run *r, const dpsel_selector *selector, dpsel_rng *rng, size_t *chosen)
{
    for (uint64_t i = 0; i < r->opt.count; i++) {
        int rc = dpsel_select(selector, r->opt.mechanism, r->cand.scores, r->cand.count,
                              rng, &chosen[i]);
        if (rc != DPSEL_OK) {
            return library_error("select", rc);
        }
    }
    return 0;
}

static int command_select(run *r)
{
    dpsel_selector *selector = NULL;
    dpsel_rng rng;
    char each[EPSILON_TEXT], total[EPSILON_TEXT];
    size_t *chosen = calloc(r->opt.count, sizeof *chosen);
    if (chosen == NULL) {
        return report("out of memory for --count %" PRIu64, r->opt.count);
    }
    int rc = dpsel_selector_new(&selector, &r->params);
    if (rc != DPSEL_OK) {
        free(chosen);
        return library_error("select", rc);
    }
    int status = init_rng(&r->opt, &rng);
    if (status == 0) {
        status = draw_all(r, selector, &rng, chosen);
    }
    if (status == 0 && r->opt.count > 1) {
        status = epsilon_text(&r->params, 1, each) || epsilon_text(&r->params, r->opt.count, total);
        if (status == 0) {
            fprintf(stderr, "dpsel: %" PRIu64 " selections, each epsilon <= %s; "
                    "together epsilon <= %s (basic composition)\n", r->opt.count, each, total);
        }
    }
    if (status == 0) {
        print_choices(r, chosen);
    }
    dpsel_rng_wipe(&rng);
    dpsel_selector_free(selector);
    free(chosen);
    return status;
}

static void print_base(run *r)
{
    fprintf(r->out, "{\"x\": \"%" PRIu64 "\", \"y\": %u}", r->params.x, r->params.y);
}

static int print_pmf(run *r, const dpsel_pmf *pmf, const char *epsilon)
{
    const options *o = &r->opt;
    dpsel_format format = o->exact ? DPSEL_RATIONAL : DPSEL_DECIMAL;
    char *text = NULL;
    if (o->json) {
        fprintf(r->out, "{\"mechanism\": \"%s\", \"base\": ", mechanism_name(o->mechanism));
        print_base(r);
        fprintf(r->out, ", \"epsilon\": \"%s\", \"gap_cap\": %" PRIu64 ", \"candidates\": [",
                epsilon, r->params.gap_cap);
    } else {
        fprintf(r->out, "# mechanism %s, base %" PRIu64 "/2^%u, epsilon <= %s, gap cap %" PRIu64 "\n"
                "label,score,probability\n", mechanism_name(o->mechanism), r->params.x,
                r->params.y, epsilon, r->params.gap_cap);
    }
    for (size_t i = 0; i < r->cand.count; i++) {
        int rc = dpsel_pmf_probability(pmf, i, format, &text);
        if (rc != DPSEL_OK) {
            return library_error("pmf", rc);
        }
        if (o->json) {
            fputs(i == 0 ? "{\"label\": " : ", {\"label\": ", r->out);
            json_string(r->out, r->cand.labels[i]);
            fprintf(r->out, ", \"score\": %" PRId64 ", \"probability\": \"%s\"}",
                    r->cand.scores[i], text);
        } else {
            fprintf(r->out, "%s,%" PRId64 ",%s\n", r->cand.labels[i], r->cand.scores[i], text);
        }
        dpsel_string_free(text);
    }
    int rc = dpsel_pmf_expected_error(pmf, format, &text);
    if (rc != DPSEL_OK) {
        return library_error("pmf", rc);
    }
    fprintf(r->out, o->json ? "], \"expected_error\": \"%s\"}\n" : "# expected error %s\n", text);
    dpsel_string_free(text);
    return 0;
}

static int command_pmf(run *r)
{
    char epsilon[EPSILON_TEXT];
    dpsel_pmf *pmf = NULL;
    if (epsilon_text(&r->params, 1, epsilon) != 0) {
        return EXIT_BAD_INPUT;
    }
    int rc = dpsel_pmf_new(&pmf, &r->params, r->opt.mechanism, r->cand.scores, r->cand.count);
    if (rc != DPSEL_OK) {
        return report("%s: pmf: %s", r->file_name, dpsel_strerror(rc));
    }
    int status = print_pmf(r, pmf, epsilon);
    dpsel_pmf_free(pmf);
    return status;
}

static int command_params(run *r)
{
    char epsilon[EPSILON_TEXT];
    const dpsel_params *p = &r->params;
    if (epsilon_text(p, 1, epsilon) != 0) {
        return EXIT_BAD_INPUT;
    }
    if (r->opt.json) {
        fputs("{\"base\": ", r->out);
        print_base(r);
        fprintf(r->out, ", \"epsilon\": \"%s\", \"epsilon_requested\": ", epsilon);
        if (r->opt.epsilon != NULL) {
            json_string(r->out, r->opt.epsilon);
        } else {
            fputs("null", r->out);
        }
        fprintf(r->out, ", \"sensitivity\": %" PRIu64 ", \"monotonic\": %s, \"gap_cap\": %" PRIu64 "}\n",
                p->sensitivity, p->monotonic ? "true" : "false", p->gap_cap);
    } else {
        fprintf(r->out, "base %" PRIu64 "/2^%u\nepsilon <= %s\n", p->x, p->y, epsilon);
        if (r->opt.epsilon != NULL) {
            fprintf(r->out, "epsilon requested %s\n", r->opt.epsilon);
        }
        fprintf(r->out, "sensitivity %" PRIu64 "\nmonotonic %s\ngap cap %" PRIu64 "\n",
                p->sensitivity, p->monotonic ? "yes" : "no", p->gap_cap);
    }
    return 0;
}

static int execute(run *r)
{
    int status = make_params(r);
    if (status == 0 && r->opt.cmd != COMMAND_PARAMS) {
        status = read_candidates(r);
    }
    if (status != 0) {
        return status;
    }
    switch (r->opt.cmd) {
    case COMMAND_SELECT: return command_select(r);
    case COMMAND_PMF: return command_pmf(r);
    default: return command_params(r);
    }
}

int main(int argc, char **argv)
{
    run r;
    char message[512];
    memset(&r, 0, sizeof r);
    if (options_parse(argc, argv, &r.opt, message, sizeof message) != 0) {
        report("%s", message);
        return EXIT_BAD_INPUT;
    }
    r.out = open_memstream(&r.out_text, &r.out_size);
    if (r.out == NULL) {
        return report("out of memory");
    }
    int status = 0;
    if (r.opt.help || r.opt.version) {
        fputs(r.opt.help ? usage : "dpsel " DPSEL_VERSION "\n", r.out);
    } else {
        status = execute(&r);
    }
    candidates_free(&r.cand);
    if (fclose(r.out) != 0 && status == 0) {
        status = report("out of memory for the output");
    }
    if (status == 0 && fwrite(r.out_text, 1, r.out_size, stdout) != r.out_size) {
        status = report("cannot write the output");
    }
    free(r.out_text);
    if (status == 0 && fflush(stdout) != 0) {
        status = report("cannot write the output: %s", strerror(errno));
    }
    return status;
}
