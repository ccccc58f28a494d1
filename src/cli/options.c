/* SPDX-License-Identifier: ISC */
/* Parsing the dpsel command line: every option at most once, every value
 * checked, options that do not apply to the command rejected. */
#include "options.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In the order help lists them. */
enum {
    OPT_EPSILON, OPT_BASE, OPT_SENSITIVITY, OPT_RESOLUTION, OPT_MONOTONIC, OPT_GAP_CAP,
    OPT_MECHANISM, OPT_TASK, OPT_QUANTILE, OPT_LOWER, OPT_UPPER, OPT_JOINT, OPT_PMF, OPT_COUNT, OPT_TOP,
    OPT_DELTA, OPT_NONADAPTIVE, OPT_GROUP, OPT_SEED, OPT_HARDENED, OPT_EXACT, OPT_EPSILONS, OPT_TARGET,
    OPT_PROGRESS, OPT_JSON, OPT_HELP, OPT_VERSION,
    OPT_COUNT_OF_OPTIONS
};

#define FOR_SELECT 1u
#define FOR_PMF 2u
#define FOR_PARAMS 4u
#define FOR_CURVE 8u
#define FOR_AUDIT 16u
#define FOR_QUANTILE 32u
#define FOR_ACCOUNT 64u
#define FOR_SCORES (FOR_SELECT | FOR_PMF | FOR_PARAMS | FOR_CURVE | FOR_AUDIT)
#define FOR_ALL (FOR_SCORES | FOR_QUANTILE)
#define FOR_EVERY (FOR_ALL | FOR_ACCOUNT)
#define FOR_ONE_PARAMETER (FOR_SELECT | FOR_PMF | FOR_PARAMS | FOR_AUDIT | FOR_QUANTILE)

typedef struct {
    const char *name;
    const char *value;      /* the value's name in help, NULL for a flag */
    unsigned commands;
    const char *help;       /* one or two lines; '\n' continues it */
} option_spec;

static const option_spec specs[OPT_COUNT_OF_OPTIONS] = {
    [OPT_EPSILON] = { "epsilon", "E", FOR_ONE_PARAMETER,
                      "requested epsilon, a decimal (1, 0.5, 5e-3): the\n"
                      "largest realisable epsilon not above E is used" },
    [OPT_BASE] = { "base", "X/2^Y", FOR_ONE_PARAMETER,
                   "the decay beta = X/2^Y per score unit, instead of\n"
                   "--epsilon" },
    [OPT_SENSITIVITY] = { "sensitivity", "D", FOR_SCORES,
                          "one person moves a score by at most D (default 1); a\n"
                          "decimal D makes the scores decimals in units of 10^-d" },
    [OPT_RESOLUTION] = { "resolution", "R", FOR_ALL,
                         "decimal scores in units of R (never rounded); quantile:\n"
                         "the grid's step (default: the last digit of A and B)" },
    [OPT_MONOTONIC] = { "monotonic", NULL, FOR_SCORES,
                        "adding a person never lowers a score (halves epsilon)" },
    [OPT_GAP_CAP] = { "gap-cap", "C", FOR_ALL,
                      "clamp gaps at C, 1 to 1048576 (default: the least C with\n"
                      "beta^C <= 2^-64)" },
    [OPT_MECHANISM] = { "mechanism", "pf|em|rnm",
                        FOR_SELECT | FOR_PMF | FOR_CURVE | FOR_AUDIT | FOR_QUANTILE,
                        "permute-and-flip (default; quantile: em), the\n"
                        "exponential mechanism, or report noisy max (curve:\n"
                        "rnm adds its column to PF's and EM's)" },
    [OPT_TASK] = { "task", "mode|median", FOR_SELECT | FOR_PMF | FOR_CURVE | FOR_AUDIT,
                   "FILE is a histogram `bin,count`: score the bins for its\n"
                   "mode (monotonic) or its median (sensitivity 1 both)" },
    [OPT_QUANTILE] = { "quantile", "Q[,Q...]", FOR_QUANTILE,
                       "the quantiles, each strictly between 0 and 1 (0.5: the\n"
                       "median); one release each" },
    [OPT_LOWER] = { "lower", "A", FOR_QUANTILE, "the grid's lower end (values below are clamped)" },
    [OPT_UPPER] = { "upper", "B", FOR_QUANTILE, "the grid's upper end (values above are clamped)" },
    [OPT_JOINT] = { "joint", NULL, FOR_QUANTILE,
                    "all the quantiles in one release (JointExp, EM): one\n"
                    "epsilon for them all" },
    [OPT_PMF] = { "pmf", NULL, FOR_QUANTILE,
                  "the exact distribution over the runs instead of a\n"
                  "release" },
    [OPT_COUNT] = { "count", "N", FOR_SELECT | FOR_QUANTILE, "N independent releases" },
    [OPT_TOP] = { "top", "K", FOR_SELECT | FOR_PMF,
                  "the K best by peeling (K rounds, each over the\n"
                  "candidates not chosen yet)" },
    [OPT_DELTA] = { "delta", "DELTA", FOR_SELECT | FOR_QUANTILE | FOR_ACCOUNT,
                    "also state the total epsilon at this delta (zCDP,\n"
                    "bounded range, optimal composition)" },
    [OPT_NONADAPTIVE] = { "nonadaptive", NULL, FOR_ACCOUNT,
                          "the releases were all fixed before any output was seen" },
    [OPT_GROUP] = { "group", "K", FOR_ACCOUNT,
                    "also the guarantee for groups of K people (data sets\n"
                    "differing in up to K records)" },
    [OPT_SEED] = { "seed", "HEX", FOR_SELECT | FOR_QUANTILE,
                   "a deterministic stream from 1 to 64 hex digits: FOR\n"
                   "TESTS AND AUDITS ONLY, never a real release" },
    [OPT_HARDENED] = { "hardened", NULL, FOR_SELECT,
                       "work independent of the scores (spec/timing.md)" },
    [OPT_EXACT] = { "exact", NULL, FOR_PMF | FOR_QUANTILE,
                    "probabilities as exact rationals (quantile: with --pmf)" },
    [OPT_EPSILONS] = { "epsilons", "SPEC", FOR_CURVE,
                       "LOW:HIGH:COUNT (log-spaced) or E1,E2,...\n"
                       "(default " CURVE_EPSILONS ")" },
    [OPT_TARGET] = { "target", "ERR", FOR_CURVE,
                     "also find the least epsilon with expected error <= ERR" },
    [OPT_PROGRESS] = { "progress", NULL, FOR_SELECT | FOR_PMF | FOR_CURVE | FOR_AUDIT | FOR_QUANTILE,
                       "the work's progress on stderr, the fraction done and\n"
                       "the time left (a terminal shows it after a second)" },
    [OPT_JSON] = { "json", NULL, FOR_EVERY, "machine-readable output" },
    [OPT_HELP] = { "help", NULL, FOR_EVERY, "this help" },
    [OPT_VERSION] = { "version", NULL, FOR_EVERY, "the version and the license" },
};

/* The commands' names, in the order help lists them (the enum's). */
static const char *const command_names[COMMAND_COUNT] = {
    [COMMAND_SELECT] = "select", [COMMAND_PMF] = "pmf", [COMMAND_PARAMS] = "params",
    [COMMAND_CURVE] = "curve", [COMMAND_AUDIT] = "audit", [COMMAND_QUANTILE] = "quantile",
    [COMMAND_ACCOUNT] = "account",
};

const char *command_name(command cmd)
{
    return command_names[cmd];
}

/* Every problem with the options is bad input: "WHAT: 'VALUE'". */
static int refuse(cli_error *e, const char *what, const char *value)
{
    char quoted[QUOTED_MAX];
    return cli_fail(e, EXIT_BAD_INPUT, "%s: '%s'", what, printable(value, 0, quoted, sizeof quoted));
}

/* Unsigned decimal in [low, high]. */
static int parse_unsigned(const char *text, uint64_t low, uint64_t high, uint64_t *value)
{
    if (!isdigit((unsigned char)text[0])) {
        return -1;
    }
    for (const char *p = text; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p)) {
            return -1;
        }
    }
    errno = 0;
    uintmax_t v = strtoumax(text, NULL, 10);
    if (errno == ERANGE || v < low || v > high) {
        return -1;
    }
    *value = (uint64_t)v;
    return 0;
}

/* X/2^Y with decimal X and Y; ranges are checked by the library. */
static int parse_base(const char *text, uint64_t *x, unsigned *y)
{
    const char *slash = strstr(text, "/2^");
    if (slash == NULL || slash == text || (size_t)(slash - text) > 20) {
        return -1;
    }
    char x_text[21];
    memcpy(x_text, text, (size_t)(slash - text));
    x_text[slash - text] = '\0';
    uint64_t y_value;
    if (parse_unsigned(x_text, 0, UINT64_MAX, x) != 0
        || parse_unsigned(slash + 3, 0, 64, &y_value) != 0) {
        return -1;
    }
    *y = (unsigned)y_value;
    return 0;
}

/* 1 to 64 hex digits, decoded big-endian (an odd count gets a leading 0). */
static int parse_seed(const char *text, unsigned char *seed, size_t *size)
{
    size_t digits = strlen(text);
    if (digits < 1 || digits > 64) {
        return -1;
    }
    for (size_t i = 0; i < digits; i++) {
        if (!isxdigit((unsigned char)text[i])) {
            return -1;
        }
    }
    *size = (digits + 1) / 2;
    memset(seed, 0, *size);
    for (size_t i = 0; i < digits; i++) {
        char c = (char)tolower((unsigned char)text[i]);
        unsigned nibble = (unsigned)(isdigit((unsigned char)c) ? c - '0' : c - 'a' + 10);
        size_t position = digits - 1 - i;  /* nibbles from the least significant end */
        seed[*size - 1 - position / 2] |= (unsigned char)(nibble << (4 * (position % 2)));
    }
    return 0;
}

/* A positive finite decimal (a display or search parameter: a double). */
static int parse_positive(const char *text, double *value)
{
    char *end;
    if (!isdigit((unsigned char)text[0]) && text[0] != '.') {
        return -1;
    }
    errno = 0;
    double v = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE || !(v > 0) || v > 1e300) {
        return -1;
    }
    *value = v;
    return 0;
}

/* --epsilons: LOW:HIGH:COUNT (COUNT values spaced evenly in log scale from
 * LOW to HIGH) or a comma-separated list, each item checked by the library
 * later.  The values must rise. */
static int parse_epsilons(const char *text, options *o)
{
    o->epsilons = text;
    o->epsilons_count = 0;
    const char *colon = strchr(text, ':');
    if (colon == NULL) {
        size_t items = 1;
        for (const char *p = text; *p != '\0'; p++) {
            items += *p == ',';
            if (*p == ',' && (p == text || p[1] == '\0' || p[1] == ',')) {
                return -1;
            }
        }
        return text[0] != '\0' && items <= CURVE_EPSILONS_MAX ? 0 : -1;
    }
    char low[64], high[64];
    const char *second = strchr(colon + 1, ':');
    size_t low_length = (size_t)(colon - text);
    size_t high_length = second != NULL ? (size_t)(second - colon - 1) : 0;
    uint64_t count;
    if (second == NULL || low_length >= sizeof low || high_length >= sizeof high
        || parse_unsigned(second + 1, 1, CURVE_EPSILONS_MAX, &count) != 0) {
        return -1;
    }
    memcpy(low, text, low_length);
    low[low_length] = '\0';
    memcpy(high, colon + 1, high_length);
    high[high_length] = '\0';
    if (parse_positive(low, &o->epsilons_low) != 0 || parse_positive(high, &o->epsilons_high) != 0
        || o->epsilons_high < o->epsilons_low || (count == 1 && o->epsilons_high != o->epsilons_low)) {
        return -1;
    }
    o->epsilons_count = (unsigned)count;
    return 0;
}

static int set_value(options *o, int id, const char *value, cli_error *e)
{
    switch (id) {
    case OPT_MECHANISM:
        if (strcmp(value, "pf") == 0) {
            o->mechanism = DPSEL_PF;
        } else if (strcmp(value, "em") == 0) {
            o->mechanism = DPSEL_EM;
        } else if (strcmp(value, "rnm") == 0) {
            o->mechanism = DPSEL_RNM;
        } else {
            return refuse(e, "--mechanism must be pf, em or rnm", value);
        }
        return 0;
    case OPT_EPSILON:
        o->epsilon = value;
        return 0;
    case OPT_BASE:
        o->base_given = 1;
        return parse_base(value, &o->base_x, &o->base_y) == 0 ? 0
             : refuse(e, "--base must be X/2^Y with integers X and Y <= 64", value);
    case OPT_SENSITIVITY:
        o->sensitivity_text = value;  /* checked with --resolution (score_unit) */
        return 0;
    case OPT_RESOLUTION:
        o->resolution = value;
        return 0;
    case OPT_GAP_CAP:
        return parse_unsigned(value, 1, DPSEL_GAP_CAP_MAX, &o->gap_cap) == 0 ? 0
             : refuse(e, "--gap-cap must be an integer from 1 to 1048576", value);
    case OPT_COUNT:
        return parse_unsigned(value, 1, UINT32_MAX, &o->count) == 0 ? 0
             : refuse(e, "--count must be an integer from 1 to 4294967295", value);
    case OPT_SEED:
        return parse_seed(value, o->seed, &o->seed_size) == 0 ? 0
             : refuse(e, "--seed must be 1 to 64 hexadecimal digits", value);
    case OPT_TASK:
        o->task_given = 1;
        o->task = strcmp(value, "median") == 0 ? DPSEL_TASK_MEDIAN : DPSEL_TASK_MODE;
        return strcmp(value, "mode") == 0 || strcmp(value, "median") == 0 ? 0
             : refuse(e, "--task must be mode or median", value);
    case OPT_EPSILONS:
        return parse_epsilons(value, o) == 0 ? 0
             : refuse(e, "--epsilons must be LOW:HIGH:COUNT (0 < LOW <= HIGH, COUNT 1 to 1000) "
                    "or a list E1,E2,...", value);
    case OPT_QUANTILE:
        o->quantiles = value;  /* each checked by the quantile command */
        return 0;
    case OPT_TOP:
        return parse_unsigned(value, 1, UINT32_MAX, &o->top) == 0 ? 0
             : refuse(e, "--top must be an integer from 1 to 4294967295", value);
    case OPT_DELTA:
        o->delta = value;      /* checked by the accountant */
        return 0;
    case OPT_GROUP:
        return parse_unsigned(value, 1, DPSEL_ACCOUNT_GROUP_MAX, &o->group) == 0 ? 0
             : refuse(e, "--group must be an integer from 1 to 4294967296", value);
    case OPT_LOWER:
        o->lower = value;
        return 0;
    case OPT_UPPER:
        o->upper = value;
        return 0;
    case OPT_TARGET:
        o->target = value;
        return parse_positive(value, &o->target_error) == 0 ? 0
             : refuse(e, "--target must be a positive decimal number", value);
    default:
        return 0;
    }
}

static void set_flag(options *o, int id)
{
    switch (id) {
    case OPT_MONOTONIC: o->monotonic = 1; break;
    case OPT_EXACT: o->exact = 1; break;
    case OPT_JSON: o->json = 1; break;
    case OPT_PROGRESS: o->progress = 1; break;
    case OPT_HELP: o->help = 1; break;
    case OPT_VERSION: o->version = 1; break;
    case OPT_HARDENED: o->hardened = 1; break;
    case OPT_JOINT: o->joint = 1; break;
    case OPT_PMF: o->pmf = 1; break;
    case OPT_NONADAPTIVE: o->nonadaptive = 1; break;
    default: break;
    }
}

/* The edit distance between a[0 .. la) and b (insertions, deletions and
 * substitutions), for words of at most WORD_MAX bytes; longer words get
 * WORD_MAX + 1. */
#define WORD_MAX 16
static size_t edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la > WORD_MAX || lb > WORD_MAX) {
        return WORD_MAX + 1;
    }
    size_t row[WORD_MAX + 1];  /* distances from a[0..i) to each b[0..j) */
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t substitute = diagonal + (a[i - 1] != b[j - 1]);
            size_t shorter = (row[j] < row[j - 1] ? row[j] : row[j - 1]) + 1;
            diagonal = row[j];
            row[j] = substitute < shorter ? substitute : shorter;
        }
    }
    return row[lb];
}

/* The shortest of name(0) .. name(count - 1) that word[0 .. length) begins,
 * if every other it begins starts with that one (--eps: epsilon, not
 * epsilons), else NULL. */
static const char *completed_name(const char *word, size_t length, const char *(*name)(int),
                                  int count)
{
    const char *shortest = NULL;
    for (int i = 0; i < count && length > 0; i++) {
        if (strncmp(name(i), word, length) == 0
            && (shortest == NULL || strlen(name(i)) < strlen(shortest))) {
            shortest = name(i);
        }
    }
    for (int i = 0; i < count && shortest != NULL; i++) {
        if (strncmp(name(i), word, length) == 0
            && strncmp(name(i), shortest, strlen(shortest)) != 0) {
            return NULL;
        }
    }
    return shortest;
}

/* Among name(0) .. name(count - 1), the one word[0 .. length) was meant to
 * be: the one it begins (completed_name), else the nearest within one
 * typing slip (two for a name of five letters or more); NULL if none. */
static const char *nearest_name(const char *word, size_t length, const char *(*name)(int),
                                int count)
{
    const char *nearest = completed_name(word, length, name, count);
    if (nearest != NULL) {
        return nearest;
    }
    size_t best = WORD_MAX + 1;
    for (int i = 0; i < count; i++) {
        size_t d = edit_distance(word, length, name(i));
        if (d < best && d <= (strlen(name(i)) < 5 ? 1u : 2u)) {
            best = d;
            nearest = name(i);
        }
    }
    return nearest;
}

static const char *command_at(int c)
{
    return command_names[c];
}

static const char *option_at(int id)
{
    return specs[id].name;
}

static int find_option(const char *name, size_t length)
{
    for (int id = 0; id < OPT_COUNT_OF_OPTIONS; id++) {
        if (strlen(specs[id].name) == length && strncmp(specs[id].name, name, length) == 0) {
            return id;
        }
    }
    return -1;
}

/* "unknown option: '--NAME'", with the option meant if one is near. */
static int refuse_option(const char *name, size_t length, const char *arg, cli_error *e)
{
    char quoted[QUOTED_MAX];
    const char *nearest = nearest_name(name, length, option_at, OPT_COUNT_OF_OPTIONS);
    printable(arg, 0, quoted, sizeof quoted);
    if (nearest != NULL) {
        return cli_fail(e, EXIT_BAD_INPUT, "unknown option: '%s'; did you mean '--%s'?", quoted,
                        nearest);
    }
    return refuse(e, "unknown option", arg);
}

static unsigned command_bit(command cmd)
{
    return cmd == COMMAND_SELECT ? FOR_SELECT : cmd == COMMAND_PMF ? FOR_PMF
         : cmd == COMMAND_CURVE ? FOR_CURVE : cmd == COMMAND_AUDIT ? FOR_AUDIT
         : cmd == COMMAND_QUANTILE ? FOR_QUANTILE : cmd == COMMAND_ACCOUNT ? FOR_ACCOUNT
         : FOR_PARAMS;
}

/* Option id is the command's (its bit) and its name begins with word[0 ..
 * length). */
static int is_option_beginning(int id, const char *word, size_t length, unsigned bit)
{
    return (specs[id].commands & bit) && strncmp(specs[id].name, word, length) == 0;
}

/* The command's options whose names begin with word[0 .. length), as
 * "'--a', '--b' or '--c'" in out. */
static void options_beginning(const char *word, size_t length, unsigned bit, char *out,
                              size_t size)
{
    int count = 0, total = 0;
    for (int id = 0; id < OPT_COUNT_OF_OPTIONS; id++) {
        total += is_option_beginning(id, word, length, bit);
    }
    size_t used = 0;
    out[0] = '\0';
    for (int id = 0; id < OPT_COUNT_OF_OPTIONS && used < size; id++) {
        if (is_option_beginning(id, word, length, bit)) {
            count++;
            const char *joint = count == 1 ? "" : count == total ? " or " : ", ";
            int written = snprintf(out + used, size - used, "%s'--%s'", joint, specs[id].name);
            used += written > 0 ? (size_t)written : size;
        }
    }
}

/* "unknown option: '-e'" (dpsel has no short options), with the long
 * options meant: for one letter, the command's options of that initial;
 * for a word, the nearest option, as for "--word". */
static int refuse_single_dash(const char *arg, command cmd, cli_error *e)
{
    const char *name = arg + 1;
    const char *equals = strchr(name, '=');
    size_t length = equals != NULL ? (size_t)(equals - name) : strlen(name);
    char meant[256] = "", quoted[QUOTED_MAX];
    if (length == 1) {
        options_beginning(name, length, command_bit(cmd), meant, sizeof meant);
    } else {
        const char *nearest = nearest_name(name, length, option_at, OPT_COUNT_OF_OPTIONS);
        if (nearest != NULL) {
            snprintf(meant, sizeof meant, "'--%s'", nearest);
        }
    }
    printable(arg, 0, quoted, sizeof quoted);
    if (meant[0] != '\0') {
        return cli_fail(e, EXIT_BAD_INPUT, "unknown option: '%s'; did you mean %s? "
                        "(options are long: --NAME)", quoted, meant);
    }
    return cli_fail(e, EXIT_BAD_INPUT, "unknown option: '%s': options are long, --NAME "
                    "(dpsel help %s lists them)", quoted, command_names[cmd]);
}

/* One "--name[=value]" at argv[*i]; advances *i past a separate value. */
static int parse_option(int argc, char **argv, int *i, options *o, int *seen, cli_error *e)
{
    const char *arg = argv[*i] + 2;
    const char *equals = strchr(arg, '=');
    size_t length = equals != NULL ? (size_t)(equals - arg) : strlen(arg);
    int id = find_option(arg, length);
    if (id < 0) {
        return refuse_option(arg, length, argv[*i], e);
    }
    if (seen[id]) {
        return refuse(e, "option given twice", argv[*i]);
    }
    seen[id] = 1;
    if (!(specs[id].commands & command_bit(o->cmd))) {
        char quoted[QUOTED_MAX];
        return cli_fail(e, EXIT_BAD_INPUT, "option does not apply to this command: '%s' "
                        "(dpsel help %s lists its options)",
                        printable(argv[*i], 0, quoted, sizeof quoted), command_names[o->cmd]);
    }
    if (specs[id].value == NULL) {
        if (equals != NULL) {
            return refuse(e, "option takes no value", argv[*i]);
        }
        set_flag(o, id);
        return 0;
    }
    const char *value = equals != NULL ? equals + 1 : NULL;
    if (value == NULL) {
        if (*i + 1 >= argc) {
            return cli_fail(e, EXIT_BAD_INPUT, "option needs a value: '--%s' (--%s %s)",
                            specs[id].name, specs[id].name, specs[id].value);
        }
        value = argv[++*i];
    }
    return set_value(o, id, value, e);
}

/* The command named word in *cmd: 0, or -1 for no such command. */
static int command_of_name(const char *word, command *cmd)
{
    for (int c = 0; c < COMMAND_COUNT; c++) {
        if (strcmp(word, command_names[c]) == 0) {
            *cmd = (command)c;
            return 0;
        }
    }
    return -1;
}

/* "unknown command: 'WORD'", with the nearest command if one is near. */
static int refuse_command(const char *word, cli_error *e)
{
    char quoted[QUOTED_MAX];
    const char *nearest = nearest_name(word, strlen(word), command_at, COMMAND_COUNT);
    printable(word, 0, quoted, sizeof quoted);
    if (nearest != NULL) {
        return cli_fail(e, EXIT_BAD_INPUT, "unknown command '%s': did you mean '%s'? "
                        "(dpsel help lists the commands)", quoted, nearest);
    }
    return cli_fail(e, EXIT_BAD_INPUT, "unknown command '%s': the commands are " COMMAND_LIST
                    " (dpsel help COMMAND for one)", quoted);
}

static int parse_command(const char *word, options *o, cli_error *e)
{
    if (command_of_name(word, &o->cmd) != 0) {
        return refuse_command(word, e);
    }
    if (o->cmd == COMMAND_QUANTILE) {
        o->mechanism = DPSEL_EM;  /* quantile's default (docs/cli.md) */
    }
    return 0;
}

/* `dpsel help [COMMAND]`, `dpsel --help` and `dpsel --version`: what to
 * print, in o. */
static int parse_help(int argc, char **argv, options *o, cli_error *e)
{
    o->version = strcmp(argv[1], "--version") == 0;
    o->help = !o->version;
    o->help_overview = 1;
    int words = strcmp(argv[1], "help") == 0 ? 3 : 2;  /* help takes a COMMAND */
    if (words == 3 && argc >= 3 && strcmp(argv[2], "help") != 0) {  /* help help: the overview */
        if (command_of_name(argv[2], &o->cmd) != 0) {
            return refuse_command(argv[2], e);
        }
        o->help_overview = 0;
    }
    return argc <= words ? 0 : refuse(e, "unexpected argument", argv[words]);
}

/* --task fixes the sensitivity and monotonicity of its scores (counts). */
static int apply_task(options *o, const int *seen, cli_error *e)
{
    if (seen[OPT_SENSITIVITY] || seen[OPT_MONOTONIC]) {
        return refuse(e, "--task sets the sensitivity and monotonicity itself",
                    seen[OPT_SENSITIVITY] ? "--sensitivity" : "--monotonic");
    }
    if (seen[OPT_RESOLUTION]) {
        return refuse(e, "--task scores counts, which take no --resolution", "--resolution");
    }
    return dpsel_task_params(o->task, &o->sensitivity, &o->monotonic) == DPSEL_OK ? 0
         : refuse(e, "--task must be mode or median", "");
}

/* The unit of decimal scores: --resolution, else 10^-d for a sensitivity
 * with d fraction digits; written into o->unit_text. */
static int choose_unit(options *o, const char *sensitivity, cli_error *e)
{
    if (o->resolution != NULL) {
        int64_t one;
        if (dpsel_decimal_to_units(o->resolution, o->resolution, &one) != DPSEL_OK) {
            return refuse(e, "--resolution must be a positive decimal number", o->resolution);
        }
        strcpy(o->unit_text, o->resolution);  /* at most DPSEL_DECIMAL_TEXT_MAX characters */
        return 0;
    }
    size_t digits = strlen(strchr(sensitivity, '.') + 1);
    if (digits < 1 || digits + 2 > DPSEL_DECIMAL_TEXT_MAX) {
        return refuse(e, "--sensitivity must be a positive decimal number", sensitivity);
    }
    decimal_unit(digits, o->unit_text);
    return 0;
}

/* The scores' unit and the sensitivity in it (spec/quantiles.md §5):
 * integer scores unless --resolution or a decimal --sensitivity is given. */
static int score_unit(options *o, cli_error *e)
{
    const char *sensitivity = o->sensitivity_text != NULL ? o->sensitivity_text : "1";
    if (o->resolution == NULL && strchr(sensitivity, '.') == NULL) {
        return parse_unsigned(sensitivity, 1, UINT64_MAX, &o->sensitivity) == 0 ? 0
             : refuse(e, "--sensitivity must be an integer from 1 to 2^64-1 or a positive "
                      "decimal number", sensitivity);
    }
    if (choose_unit(o, sensitivity, e) != 0) {
        return e->status;
    }
    o->unit = o->unit_text;
    int64_t units = 0;
    int rc = dpsel_decimal_to_units(sensitivity, o->unit, &units);
    if (rc == DPSEL_EUNIT) {
        char quoted[QUOTED_MAX];
        return cli_fail(e, EXIT_BAD_INPUT, "--sensitivity must be a whole multiple of the "
                        "score unit %s: '%s'", o->unit,
                        printable(sensitivity, 0, quoted, sizeof quoted));
    }
    if (rc != DPSEL_OK || units < 1) {
        return refuse(e, "--sensitivity must be a positive decimal number of at most "
                      "2^63-1 score units", sensitivity);
    }
    o->sensitivity = (uint64_t)units;
    return 0;
}

/* quantile: the quantiles and the grid are required (each value is
 * checked with the file); --pmf releases nothing, so no random stream. */
static int check_quantile(const options *o, const int *seen, cli_error *e)
{
    if (o->quantiles == NULL || o->lower == NULL || o->upper == NULL) {
        return refuse(e, "quantile needs --quantile Q, --lower A and --upper B",
                      o->quantiles == NULL ? "--quantile" : o->lower == NULL ? "--lower"
                                                                             : "--upper");
    }
    if (o->pmf && (seen[OPT_COUNT] || seen[OPT_SEED])) {
        return refuse(e, "--pmf computes the distribution and releases nothing: it takes no",
                      seen[OPT_COUNT] ? "--count" : "--seed");
    }
    if (o->exact && !o->pmf) {
        return refuse(e, "--exact applies to --pmf", "--exact");
    }
    if (o->joint && o->exact) {
        return refuse(e, "--joint --pmf gives enclosures (below 1e-30 relative) and correctly "
                      "rounded decimals, no exact rationals: it takes no", "--exact");
    }
    if (o->joint && o->mechanism != DPSEL_EM) {
        return refuse(e, "--joint is the exponential mechanism over tuples (JointExp, no PF "
                      "form is defined): it takes --mechanism em only, not",
                      o->mechanism == DPSEL_PF ? "pf" : "rnm");
    }
    return 0;
}

/* Report noisy max takes a decimal epsilon, exactly (no base, no gap cap):
 * what it does not have is refused, not approximated. */
static int check_rnm(const options *o, cli_error *e)
{
    if (o->cmd == COMMAND_PMF && o->exact) {
        return refuse(e, "--mechanism rnm's probabilities involve e^(-g/b) and are not "
                      "rational: pmf gives their enclosures and correctly rounded decimals, "
                      "and takes no", "--exact");
    }
    if (o->cmd == COMMAND_CURVE && o->target != NULL) {
        return refuse(e, "--target searches PF's and EM's epsilons: with --mechanism rnm "
                      "curve takes no", "--target");
    }
    if (o->cmd == COMMAND_PMF && o->top > 1) {
        return refuse(e, "pmf --mechanism rnm gives one selection's distribution (the top-k "
                      "pmf is PF's and EM's): it takes no", "--top");
    }
    if (o->cmd == COMMAND_QUANTILE) {
        return refuse(e, "--mechanism rnm has no quantile form (report noisy max chooses among "
                      "labelled scores): quantile takes --mechanism em or pf, not", "rnm");
    }
    if (o->base_given) {
        return refuse(e, "--mechanism rnm takes --epsilon as a decimal (realised exactly), not",
                      "--base");
    }
    if (o->hardened || o->gap_cap != 0) {
        return refuse(e, "--mechanism rnm has no hardened mode and no gap cap: it takes no",
                      o->hardened ? "--hardened" : "--gap-cap");
    }
    return 0;
}

/* Checks that need the whole command line. */
static int check_complete(options *o, const int *seen, cli_error *e)
{
    if (o->help || o->version) {
        return 0;
    }
    if (o->cmd == COMMAND_ACCOUNT) {
        return o->release_count > 0 ? 0
             : refuse(e, "account needs at least one release",
                       "em:EPS[xN], pf:EPS[xN] or rnm:EPS[xN]");
    }
    if (o->top > 1 && o->hardened) {
        return refuse(e, "--top has no hardened mode", "--hardened");
    }
    if (o->mechanism == DPSEL_RNM && check_rnm(o, e) != 0) {
        return e->status;
    }
    if (o->cmd == COMMAND_QUANTILE) {
        if (check_quantile(o, seen, e) != 0) {
            return e->status;
        }
    } else if (o->task_given ? apply_task(o, seen, e) != 0 : score_unit(o, e) != 0) {
        return e->status;
    }
    if (o->cmd == COMMAND_CURVE && seen[OPT_MECHANISM] && o->mechanism != DPSEL_RNM) {
        return refuse(e, "curve prints PF's and EM's errors always; --mechanism rnm adds report "
                      "noisy max's: it takes rnm only, not", o->mechanism == DPSEL_PF ? "pf" : "em");
    }
    if (o->cmd == COMMAND_CURVE) {
        return o->epsilons != NULL ? 0 : parse_epsilons(CURVE_EPSILONS, o);
    }
    if (o->epsilon != NULL && o->base_given) {
        return refuse(e, "give --epsilon or --base, not both", "--base");
    }
    if (o->epsilon == NULL && !o->base_given) {
        return cli_fail(e, EXIT_BAD_INPUT, "a privacy parameter is required: give --epsilon E "
                        "(such as --epsilon 1) or --base X/2^Y");
    }
    if (o->cmd == COMMAND_AUDIT && o->file_b == NULL) {
        return refuse(e, "audit needs two files", "FILE_A FILE_B");
    }
    if (o->cmd == COMMAND_PARAMS && o->file != NULL) {
        return refuse(e, "params takes no FILE", o->file);
    }
    return 0;
}

int options_parse(int argc, char **argv, options *o, cli_error *e)
{
    int seen[OPT_COUNT_OF_OPTIONS] = { 0 };
    memset(o, 0, sizeof *o);
    o->sensitivity = 1;
    o->count = 1;
    o->top = 1;
    o->mechanism = DPSEL_PF;
    if (argc < 2) {
        return refuse(e, "missing command: " COMMAND_LIST, "");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "--version") == 0
        || strcmp(argv[1], "help") == 0) {
        return parse_help(argc, argv, o, e);
    }
    if (parse_command(argv[1], o, e) != 0) {
        return e->status;
    }
    for (int i = 2; i < argc; i++) {
        if (strncmp(argv[i], "--", 2) == 0 && argv[i][2] != '\0') {
            if (parse_option(argc, argv, &i, o, seen, e) != 0) {
                return e->status;
            }
        } else if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0) {
            return refuse_single_dash(argv[i], o->cmd, e);
        } else if (o->cmd == COMMAND_ACCOUNT) {
            /* gathered at the start of argv's arguments, over slots already read */
            o->releases = &argv[2];
            o->releases[o->release_count++] = argv[i];
        } else if (o->file == NULL) {
            o->file = argv[i];
        } else if (o->cmd == COMMAND_AUDIT && o->file_b == NULL) {
            o->file_b = argv[i];
        } else {
            return refuse(e, o->cmd == COMMAND_AUDIT ? "more than two FILEs" : "more than one FILE",
                        argv[i]);
        }
    }
    return check_complete(o, seen, e);
}

void options_print_help(FILE *out, command cmd)
{
    unsigned bit = command_bit(cmd);
    fputs("options:\n", out);
    for (int id = 0; id < OPT_COUNT_OF_OPTIONS; id++) {
        const option_spec *spec = &specs[id];
        if (!(spec->commands & bit)) {
            continue;
        }
        int width = fprintf(out, "  --%s%s%s", spec->name, spec->value != NULL ? " " : "",
                            spec->value != NULL ? spec->value : "");
        fprintf(out, "%*s", width < HELP_COLUMN ? HELP_COLUMN - width : 1, "");
        for (const char *p = spec->help; *p != '\0'; p++) {
            fputc(*p, out);
            if (*p == '\n') {
                fprintf(out, "%*s", HELP_COLUMN, "");
            }
        }
        fputc('\n', out);
    }
}
