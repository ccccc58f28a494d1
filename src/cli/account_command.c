/* SPDX-License-Identifier: ISC */
/*
 * `dpsel account` and the accounting lines of select and quantile: the
 * library's accountant (dpsel_accountant_*) fed the releases and asked for
 * its figures; this file only reads the releases and prints.
 */
#include "account_command.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shared.h"
#include "text.h"

static int refuse(cli_error *e, const char *what, const char *value)
{
    char quoted[QUOTED_MAX];
    return cli_fail(e, EXIT_BAD_INPUT, "%s: '%s'", what, printable(value, 0, quoted, sizeof quoted));
}

/* The accountant's report, its delta problems named. */
static int report(const options *o, const dpsel_accountant *accountant,
                  dpsel_composition composition, dpsel_account *out, cli_error *e)
{
    int rc = dpsel_accountant_report(accountant, o->delta, composition, out);
    if (rc == DPSEL_ERANGE || rc == DPSEL_EEPSILON) {
        return refuse(e, "--delta must be a decimal strictly between 0 and 1", o->delta);
    }
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "account", rc);
}

/* The mechanism a release's text begins with ("em:", "pf:" or "rnm:") and
 * the length of that prefix; 0 for none. */
static size_t release_mechanism(const char *text, dpsel_mechanism *mechanism)
{
    static const struct {
        const char *prefix;
        dpsel_mechanism mechanism;
    } known[] = { { "em:", DPSEL_EM }, { "pf:", DPSEL_PF }, { "rnm:", DPSEL_RNM } };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t length = strlen(known[i].prefix);
        if (strncmp(text, known[i].prefix, length) == 0) {
            *mechanism = known[i].mechanism;
            return length;
        }
    }
    return 0;
}

/* "em:EPS[xN]", "pf:EPS[xN]" or "rnm:EPS[xN]" into the accountant. */
static int add_release(dpsel_accountant *accountant, const char *text, cli_error *e)
{
    dpsel_mechanism mechanism = DPSEL_PF;
    size_t prefix = release_mechanism(text, &mechanism);
    if (prefix == 0) {
        return refuse(e, "a release is em:EPS[xN], pf:EPS[xN] or rnm:EPS[xN]", text);
    }
    char epsilon[128];
    const char *times = strchr(text + prefix, 'x');
    size_t length = times != NULL ? (size_t)(times - text - prefix) : strlen(text + prefix);
    uint64_t count = 1;
    if (times != NULL) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(times + 1, &end, 10);
        if (times[1] < '0' || times[1] > '9' || *end != '\0' || errno == ERANGE || n == 0) {
            return refuse(e, "a release's count N (em:EPSxN) must be an integer of at least 1",
                          text);
        }
        count = n;
    }
    if (length == 0 || length >= sizeof epsilon) {
        return refuse(e, "a release's epsilon must be a positive decimal", text);
    }
    memcpy(epsilon, text + prefix, length);
    epsilon[length] = '\0';
    int rc = dpsel_accountant_add(accountant, mechanism, epsilon, count);
    if (rc == DPSEL_EEPSILON) {
        return refuse(e, "a release's epsilon must be a positive decimal", text);
    }
    if (rc == DPSEL_ERANGE) {
        return refuse(e, "more than 2^62 releases in all", text);
    }
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "account", rc);
}

/* A figure, or null for none ("" from the library). */
static void json_figure(FILE *out, const char *figure)
{
    if (figure[0] == '\0') {
        fputs("null", out);
    } else {
        fprintf(out, "\"%s\"", figure);
    }
}

/* The figures from pure to dp_optimal, as JSON members. */
static void json_figures(FILE *out, const dpsel_account *a)
{
    fprintf(out, "\"pure\": {\"epsilon\": \"%s\"}, \"zcdp\": {\"rho\": \"%s\", \"epsilon\": ",
            a->pure, a->rho);
    json_figure(out, a->zcdp);
    fputs("}, \"bounded_range\": ", out);
    if (a->bounded_range[0] != '\0') {
        fprintf(out, "{\"epsilon\": \"%s\", \"composition\": \"%s\"}", a->bounded_range,
                a->bounded_range_composition);
    } else {
        fputs("null", out);
    }
    fputs(", \"dp_optimal\": ", out);
    if (a->dp_optimal[0] != '\0') {
        fprintf(out, "{\"epsilon\": \"%s\"}", a->dp_optimal);
    } else {
        fputs("null", out);
    }
}

static void json_best(FILE *out, const dpsel_account *a)
{
    fprintf(out, "\"best\": {\"epsilon\": \"%s\", \"method\": \"%s\"}", a->best,
            a->best_method);
}

/* --group's member: the account for groups and the theorem's figures. */
static void json_group(FILE *out, const dpsel_group_account *g)
{
    fprintf(out, ", \"group\": {\"size\": \"%" PRIu64 "\", ", g->group);
    json_figures(out, &g->account);
    fputs(", ", out);
    json_best(out, &g->account);
    fputs(", \"theorem\": ", out);
    if (g->delta[0] != '\0') {
        fprintf(out, "{\"epsilon\": \"%s\", \"delta\": \"%s\"}}", g->epsilon, g->delta);
    } else {
        fputs("null}", out);
    }
}

static void print_json(const options *o, const dpsel_account *a, const dpsel_group_account *g,
                       FILE *out)
{
    fprintf(out, "{\"releases\": \"%" PRIu64 "\", ", a->releases);
    json_figures(out, a);
    fputs(", \"delta\": ", out);
    if (o->delta != NULL) {
        json_string(out, o->delta);
    } else {
        fputs("null", out);
    }
    fputs(", ", out);
    json_best(out, a);
    if (g != NULL) {
        json_group(out, g);
    }
    fputs("}\n", out);
}

/* Whether a delta figure (dpsel's decimal style, rounded up) is 1 or more. */
static int vacuous(const char *delta)
{
    return strcmp(delta, "inf") == 0 || (delta[0] != '0' && strstr(delta, "e-") == NULL);
}

/* The figures as lines, each begun by prefix ("" or "group K "). */
static void text_figures(const options *o, const dpsel_account *a, const char *prefix,
                         FILE *out)
{
    fprintf(out, "%spure epsilon <= %s\n%szcdp rho <= %s\n", prefix, a->pure, prefix, a->rho);
    if (o->delta != NULL) {
        if (prefix[0] == '\0') {
            fprintf(out, "delta %s\n", o->delta);
        }
        fprintf(out, "%szcdp epsilon <= %s\n", prefix, a->zcdp);
        if (a->bounded_range[0] != '\0') {
            fprintf(out, "%sbounded-range epsilon <= %s (%s)\n", prefix, a->bounded_range,
                    a->bounded_range_composition);
        }
        if (a->dp_optimal[0] != '\0') {
            fprintf(out, "%sdp-optimal epsilon <= %s\n", prefix, a->dp_optimal);
        }
    }
    fprintf(out, "%sbest epsilon <= %s (%s)\n", prefix, a->best, a->best_method);
}

static void print_text(const options *o, const dpsel_account *a, const dpsel_group_account *g,
                       FILE *out)
{
    fprintf(out, "releases %" PRIu64 "\n", a->releases);
    text_figures(o, a, "", out);
    if (g == NULL) {
        return;
    }
    char prefix[48];
    snprintf(prefix, sizeof prefix, "group %" PRIu64 " ", g->group);
    text_figures(o, &g->account, prefix, out);
    if (g->delta[0] != '\0') {
        fprintf(out, "%stheorem epsilon <= %s at delta <= %s%s\n", prefix, g->epsilon, g->delta,
                vacuous(g->delta) ? " (a delta of 1 or more says nothing)" : "");
    }
}

/* The account for groups of --group people, when asked. */
static int report_group(const options *o, const dpsel_accountant *accountant,
                        dpsel_composition composition, dpsel_group_account *out, cli_error *e)
{
    int rc = dpsel_accountant_report_group(accountant, o->delta, composition, o->group, out);
    return rc == DPSEL_OK ? 0 : cli_fail_library(e, "account --group", rc);
}

int account_print(const options *o, FILE *out, cli_error *error)
{
    dpsel_accountant *accountant = NULL;
    int rc = dpsel_accountant_new(&accountant);
    int status = rc == DPSEL_OK ? 0 : cli_fail_library(error, "account", rc);
    for (size_t i = 0; i < o->release_count && status == 0; i++) {
        status = add_release(accountant, o->releases[i], error);
    }
    dpsel_composition composition = o->nonadaptive ? DPSEL_NONADAPTIVE : DPSEL_ADAPTIVE;
    dpsel_account a;
    if (status == 0) {
        status = report(o, accountant, composition, &a, error);
    }
    dpsel_group_account g;
    if (status == 0 && o->group != 0) {
        status = report_group(o, accountant, composition, &g, error);
    }
    if (status == 0) {
        (o->json ? print_json : print_text)(o, &a, o->group != 0 ? &g : NULL, out);
    }
    dpsel_accountant_free(accountant);
    return status;
}

/* The line of account_state, from an accountant fed the releases (rc the
 * feeding's result); frees the accountant. */
static int state_line(const options *o, dpsel_accountant *accountant, int rc,
                      dpsel_composition composition, const char *what, cli_error *error)
{
    int status = rc == DPSEL_OK ? 0 : cli_fail_library(error, "account", rc);
    dpsel_account a;
    if (status == 0) {
        status = report(o, accountant, composition, &a, error);
    }
    if (status == 0) {
        fprintf(stderr, "dpsel: %s; together epsilon <= %s (basic composition)", what, a.pure);
        if (o->delta != NULL) {
            fprintf(stderr, "; at delta %s, epsilon <= %s (%s)", o->delta, a.best,
                    a.best_method);
        }
        fputc('\n', stderr);
    }
    dpsel_accountant_free(accountant);
    return status;
}

int account_state(const options *o, const dpsel_params *params, size_t k, uint64_t count,
                  dpsel_composition composition, const char *what, cli_error *error)
{
    dpsel_accountant *accountant = NULL;
    int rc = dpsel_accountant_new(&accountant);
    for (size_t i = 0; i < k && rc == DPSEL_OK; i++) {
        rc = dpsel_accountant_add_params(accountant, o->mechanism, &params[i], count);
    }
    return state_line(o, accountant, rc, composition, what, error);
}

int account_state_decimal(const options *o, const char *epsilon, uint64_t count,
                          dpsel_composition composition, const char *what, cli_error *error)
{
    dpsel_accountant *accountant = NULL;
    int rc = dpsel_accountant_new(&accountant);
    if (rc == DPSEL_OK) {
        rc = dpsel_accountant_add(accountant, o->mechanism, epsilon, count);
    }
    return state_line(o, accountant, rc, composition, what, error);
}
