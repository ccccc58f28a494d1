/* SPDX-License-Identifier: ISC */
/* What the tool's commands share (shared.h). */
#include "shared.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"

/* Why dpsel_params_from_epsilon refused --epsilon: text is not a positive
 * decimal (the accountant, which reads epsilons with the same grammar,
 * refuses it too), or no base realises so small an epsilon: the smallest,
 * that of the base nearest 1, (2^64 - 1)/2^64, is named. */
/* Whether text is a positive decimal as the accountant reads epsilons;
 * DPSEL_OK, DPSEL_EEPSILON, or the accountant's failure. */
static int positive_decimal(const char *text)
{
    dpsel_accountant *accountant = NULL;
    int rc = dpsel_accountant_new(&accountant);
    if (rc == DPSEL_OK) {
        rc = dpsel_accountant_add(accountant, DPSEL_PF, text, 1);
    }
    dpsel_accountant_free(accountant);
    return rc;
}

static int refuse_not_decimal(const char *quoted, cli_error *e)
{
    return cli_fail(e, EXIT_BAD_INPUT, "--epsilon '%s' is not a positive decimal number "
                    "(write it as 1, 0.5 or 5e-3)", quoted);
}

static int refuse_epsilon(const char *text, uint64_t sensitivity, int monotonic, cli_error *e)
{
    char quoted[QUOTED_MAX], smallest[EPSILON_TEXT];
    dpsel_params nearest_one;
    printable(text, 0, quoted, sizeof quoted);
    int rc = positive_decimal(text);
    if (rc == DPSEL_EEPSILON) {
        return refuse_not_decimal(quoted, e);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_params_from_base(&nearest_one, UINT64_MAX, 64, sensitivity, monotonic);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_params_epsilon(&nearest_one, 3, smallest, sizeof smallest);
    }
    if (rc != DPSEL_OK) {
        return cli_fail_library(e, "--epsilon", rc);
    }
    return cli_fail(e, EXIT_BAD_INPUT, "--epsilon '%s' is too small: the smallest epsilon for "
                    "this sensitivity is about %s", quoted, smallest);
}

int rnm_scale_from_options(const options *o, uint64_t *w, uint64_t *p, cli_error *e)
{
    char quoted[QUOTED_MAX];
    printable(o->epsilon, 0, quoted, sizeof quoted);
    int rc = dpsel_rnm_scale(o->epsilon, o->sensitivity, o->monotonic, w, p);
    if (rc == DPSEL_EEPSILON && positive_decimal(o->epsilon) == DPSEL_EEPSILON) {
        return refuse_not_decimal(quoted, e);
    }
    if (rc == DPSEL_EEPSILON) {
        unsigned c = o->monotonic ? 1 : 2;
        return cli_fail(e, EXIT_BAD_INPUT, "--epsilon '%s' with --mechanism rnm: the Laplace "
                        "scale %u D / epsilon (D = %" PRIu64 ") as a fraction W / P in lowest "
                        "terms needs W and P below 2^62 (give an epsilon of fewer digits, "
                        "roughly between %u D / 2^62 and %u D 2^62)", quoted, c, o->sensitivity,
                        c, c);
    }
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "--epsilon", rc);
}

int params_from_options(const options *o, uint64_t sensitivity, int monotonic,
                        dpsel_params *out, cli_error *e)
{
    int rc;
    if (o->base_given) {
        rc = dpsel_params_from_base(out, o->base_x, o->base_y, sensitivity, monotonic);
        if (rc != DPSEL_OK) {
            return cli_fail(e, exit_status_of_error(rc),
                            "--base %" PRIu64 "/2^%u: %s (need 1 <= Y <= 64 and 0 < X < 2^Y)",
                            o->base_x, o->base_y, dpsel_strerror(rc));
        }
    } else {
        rc = dpsel_params_from_epsilon(out, o->epsilon, sensitivity, monotonic);
        if (rc == DPSEL_EEPSILON) {
            return refuse_epsilon(o->epsilon, sensitivity, monotonic, e);
        }
        if (rc != DPSEL_OK) {
            char quoted[QUOTED_MAX];
            return cli_fail(e, exit_status_of_error(rc), "--epsilon '%s': %s",
                            printable(o->epsilon, 0, quoted, sizeof quoted), dpsel_strerror(rc));
        }
    }
    if (o->gap_cap != 0 && (rc = dpsel_params_set_gap_cap(out, o->gap_cap)) != DPSEL_OK) {
        return cli_fail_library(e, "--gap-cap", rc);
    }
    return 0;
}

int epsilon_text(const dpsel_params *params, char *buf, cli_error *e)
{
    int rc = dpsel_params_epsilon(params, EPSILON_DIGITS, buf, EPSILON_TEXT);
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "epsilon", rc);
}

score_format score_format_of(const options *o)
{
    score_format format = { o->unit, NULL };
    if (!o->task_given) {
        format.sensitivity = o->sensitivity_text != NULL ? o->sensitivity_text : "1";
    }
    return format;
}

const char *mechanism_name(dpsel_mechanism m)
{
    return m == DPSEL_RNM ? "rnm" : m == DPSEL_EM ? "em" : "pf";
}

void print_base(FILE *out, const dpsel_params *params)
{
    fprintf(out, "{\"x\": \"%" PRIu64 "\", \"y\": %u}", params->x, params->y);
}

int init_rng(const options *o, dpsel_rng *rng, cli_error *e)
{
    if (o->seed_size == 0) {
        int rc = dpsel_rng_init_os(rng);
        return rc == DPSEL_OK ? 0 : cli_fail_library(e, "the OS random source", rc);
    }
    fputs("dpsel: warning: --seed gives a deterministic stream that anyone with the seed "
          "can replay: for tests and reproducible audits only, never a real release\n", stderr);
    int rc = dpsel_rng_init_seeded(rng, o->seed, o->seed_size);
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "--seed", rc);
}

int open_input(const char *file, FILE **stream, const char **name, char *quoted, int *regular,
               cli_error *e)
{
    *stream = stdin;
    *name = "<stdin>";
    *regular = 0;
    if (file == NULL || strcmp(file, "-") == 0) {
        return 0;
    }
    *name = printable(file, 0, quoted, QUOTED_MAX);
    *stream = fopen(file, "r");
    if (*stream == NULL) {
        int error = errno;
        return cli_fail_at(e, exit_status_of_errno(error), *name, 0, "cannot open: %s",
                           strerror(error));
    }
    struct stat info;
    if (fstat(fileno(*stream), &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            fclose(*stream);
            return cli_fail_at(e, EXIT_BAD_INPUT, *name, 0, "is a directory");
        }
        *regular = S_ISREG(info.st_mode);
    }
    return 0;
}

void close_input(FILE *stream)
{
    if (stream != stdin) {
        fclose(stream);
    }
}

void pmf_text_free(pmf_text *t)
{
    dpsel_string_free(t->value);
    dpsel_string_free(t->lower);
    dpsel_string_free(t->upper);
}

int pmf_text_make(const dpsel_pmf *pmf, size_t i, size_t n, dpsel_format format, pmf_text *t)
{
    if (i == n) {
        return pmf_error_text_make(pmf, "1", format, t);
    }
    int rc = dpsel_pmf_probability(pmf, i, format, &t->value);
    if (rc == DPSEL_OK) {
        rc = dpsel_pmf_probability_bounds(pmf, i, BOUND_DIGITS, &t->lower, &t->upper);
    }
    return rc;
}

int pmf_text_copy(const pmf_text *from, pmf_text *t)
{
    t->value = strdup(from->value);
    t->lower = strdup(from->lower);
    t->upper = strdup(from->upper);
    return t->value != NULL && t->lower != NULL && t->upper != NULL ? DPSEL_OK : DPSEL_ENOMEM;
}

static int compare_scored(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]) + (x[0] == y[0]) * ((x[1] > y[1]) - (x[1] < y[1]));
}

size_t *first_of_equal_scores(const int64_t *scores, size_t n)
{
    int64_t (*scored)[2] = malloc((n > 0 ? n : 1) * sizeof *scored);  /* score, position */
    size_t *first = malloc((n > 0 ? n : 1) * sizeof *first);
    if (scored == NULL || first == NULL) {
        free(scored);
        free(first);
        return NULL;
    }
    for (size_t r = 0; r < n; r++) {
        scored[r][0] = scores[r];
        scored[r][1] = (int64_t)r;
    }
    qsort(scored, n, sizeof *scored, compare_scored);   /* by score, then position */
    for (size_t k = 0; k < n; k++) {
        size_t r = (size_t)scored[k][1];
        first[r] = k > 0 && scored[k][0] == scored[k - 1][0] ? first[scored[k - 1][1]] : r;
    }
    free(scored);
    return first;
}

int pmf_error_text_make(const dpsel_pmf *pmf, const char *unit, dpsel_format format,
                        pmf_text *t)
{
    int rc = dpsel_pmf_expected_error_in_units(pmf, unit, format, &t->value);
    if (rc == DPSEL_OK) {
        rc = dpsel_pmf_expected_error_bounds_in_units(pmf, unit, BOUND_DIGITS, &t->lower,
                                                      &t->upper);
    }
    return rc;
}

const char *score_unit_text(const options *o)
{
    return o->unit != NULL ? o->unit : "1";
}

int score_text(const options *o, int64_t score, char *buf, cli_error *e)
{
    int rc = dpsel_units_to_decimal(score, score_unit_text(o), buf, UNITS_TEXT);
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "a score in its unit", rc);
}

/* x + y for non-negative decimals with the same fraction digits (texts of
 * dpsel_units_to_decimal in one unit, so their points align) into out,
 * which holds one character more than the longer. */
static void add_decimals(const char *x, const char *y, char *out)
{
    size_t lx = strlen(x), ly = strlen(y);
    size_t length = (lx > ly ? lx : ly) + 1;  /* room for a carry */
    int carry = 0;
    out[length] = '\0';
    for (size_t k = 1; k <= length; k++) {
        char a = k <= lx ? x[lx - k] : '0';
        char b = k <= ly ? y[ly - k] : '0';
        if (a == '.') {
            out[length - k] = '.';
            continue;
        }
        int digit = (a - '0') + (b - '0') + carry;
        carry = digit / 10;
        out[length - k] = (char)('0' + digit % 10);
    }
    if (out[0] == '0' && out[1] >= '0' && out[1] <= '9') {
        memmove(out, out + 1, length);  /* no carry: the digit and the NUL move up */
    }
}

int units_text(const options *o, uint64_t units, char *buf, cli_error *e)
{
    /* beyond the int64 range (up to 2^64 - 1, the distance between the two
     * extreme scores): the sum of up to three parts within it, each exact */
    uint64_t part = units < INT64_MAX ? units : INT64_MAX;
    int status = score_text(o, (int64_t)part, buf, e);
    for (units -= part; status == 0 && units > 0; units -= part) {
        char next[UNITS_TEXT], sum[UNITS_TEXT];
        part = units < INT64_MAX ? units : INT64_MAX;
        status = score_text(o, (int64_t)part, next, e);
        if (status == 0) {
            add_decimals(buf, next, sum);
            strcpy(buf, sum);
        }
    }
    return status;
}

int cli_exact_too_large(cli_error *e, const char *name, const char *what, const char *size,
                        uint64_t work, uint64_t limit)
{
    char need[32];
    if (work == UINT64_MAX) {
        snprintf(need, sizeof need, "2^64 or more");
    } else {
        snprintf(need, sizeof need, "%" PRIu64, work);
    }
    return cli_fail_at(e, EXIT_BAD_INPUT, name, 0, "%s: the exact rationals of %s need %s bits "
                       "of weight arithmetic, beyond the limit of %" PRIu64 " (2^%d); drop "
                       "--exact for decimals and enclosures", what, size, need, limit,
                       limit == 0 ? 0 : 63 - __builtin_clzll(limit));
}
