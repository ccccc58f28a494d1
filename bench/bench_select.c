/* SPDX-License-Identifier: ISC */
/*
 * make bench: dpsel's exact PF and EM (OS random source) against textbook
 * double-precision code and against just reading the scores once (the
 * memory-bandwidth floor), timed in alternation in one process; then the
 * exact pmf on the DPBench histograms (4096 bins, and summed to 1024), the
 * tool on a large file, and the quantile mechanism on large grids.
 *
 * usage: bench_select [--quick] [--n LIST] [--eps LIST] [--vectors LIST]
 *                     [--budget SECONDS] [--csv FILE] [--hepth FILE] [--dpbench DIR]
 *                     [--cli TOOL]
 * LIST is comma-separated ("1e3,1e6"; "0.1,1"; "hepth,near-1000").  docs/performance.md describes the output.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define MAX_LIST 16
#define MAX_RUNS 101
#define MAX_CONTENDERS 6
#define ENTROPY_PMF_MAX 1000   /* entropy from the exact pmf up to this n */
#define FLOOR (-1)             /* the mechanism field of the bandwidth floor */
#define BATCH_CANDIDATES 10000 /* a timed sample of selections covers this many */

typedef struct {
    size_t n[MAX_LIST];
    size_t n_count;
    const char *eps[MAX_LIST];
    size_t eps_count;
    const char *vectors[MAX_LIST]; /* the score vectors to time, or all if none */
    size_t vector_count;
    double budget;             /* seconds of timing per cell */
    const char *csv, *hepth, *dpbench;
    const char *cli;           /* the dpsel tool to time on a large file, or NULL */
    size_t cli_n;              /* its lines */
    int quick;                 /* --quick: smaller cells */
} settings;

typedef struct {
    const char *name;
    run_fn run;
    int mechanism;             /* DPSEL_PF, DPSEL_EM or FLOOR */
    int exact;                 /* dpsel: draws from the dpsel_rng */
    const char *label;         /* the table's mechanism column */
} contender;

typedef struct {
    int status;                /* DPSEL_OK or the first error */
    unsigned runs;
    double median;             /* seconds per call */
    double random_bytes;       /* mean per call (untimed pass) */
    size_t peak_bytes;         /* peak extra heap of a call (untimed pass) */
} measurement;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, size_t count)
{
    qsort(values, count, sizeof *values, compare_double);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* ------------------------------------------------------------ contenders */

static int read_scores(bench_case *c, uint64_t *out)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < c->n; i++) {
        sum += (uint64_t)c->scores[i];
    }
    *out = sum;
    return DPSEL_OK;
}

typedef int (*select_fn)(const dpsel_selector *selector, dpsel_mechanism mechanism,
                         const int64_t *scores, size_t n, dpsel_rng *rng, size_t *index);

/* A selection by select (dpsel_select or dpsel_select_hardened). */
static int dpsel_run(bench_case *c, select_fn select, dpsel_mechanism mechanism, uint64_t *out)
{
    size_t index = 0;
    int rc = select(c->selector, mechanism, c->scores, c->n, c->rng, &index);
    *out = index;
    return rc;
}

static int dpsel_em(bench_case *c, uint64_t *out) { return dpsel_run(c, dpsel_select, DPSEL_EM, out); }
static int dpsel_pf(bench_case *c, uint64_t *out) { return dpsel_run(c, dpsel_select, DPSEL_PF, out); }
/* PF streamed: dpsel_pf_stream_add for every score, the largest given (a
 * streaming caller's first pass, not timed). */
static int stream_pf(bench_case *c, uint64_t *out)
{
    dpsel_pf_stream stream;
    size_t index = 0;
    int rc = dpsel_pf_stream_start(&stream, c->selector, c->best);
    for (size_t i = 0; i < c->n && rc == DPSEL_OK; i++) {
        rc = dpsel_pf_stream_add(&stream, c->scores[i], c->rng);
    }
    if (rc == DPSEL_OK) {
        rc = dpsel_pf_stream_finish(&stream, c->rng, &index);
    }
    *out = index;
    return rc;
}

static int hardened_em(bench_case *c, uint64_t *out)
{
    return dpsel_run(c, dpsel_select_hardened, DPSEL_EM, out);
}
static int hardened_pf(bench_case *c, uint64_t *out)
{
    return dpsel_run(c, dpsel_select_hardened, DPSEL_PF, out);
}

static int pmf_run(bench_case *c, dpsel_mechanism mechanism, uint64_t *out)
{
    dpsel_pmf *pmf;
    int rc = dpsel_pmf_new(&pmf, c->params, mechanism, c->scores, c->n);
    if (rc == DPSEL_OK) {
        dpsel_pmf_free(pmf);
    }
    *out = (uint64_t)rc;
    return rc;
}

static int pmf_em(bench_case *c, uint64_t *out)
{
    return pmf_run(c, DPSEL_EM, out);
}

static int pmf_pf(bench_case *c, uint64_t *out)
{
    return pmf_run(c, DPSEL_PF, out);
}

static const contender selections[] = {
    { "floor", read_scores, FLOOR, 0, "-" },
    { "float-EM", naive_em, DPSEL_EM, 0, "EM" },
    { "float-PF", naive_pf, DPSEL_PF, 0, "PF" },
    { "dpsel-EM", dpsel_em, DPSEL_EM, 1, "EM" },
    { "dpsel-PF", dpsel_pf, DPSEL_PF, 1, "PF" },
    { "stream-PF", stream_pf, DPSEL_PF, 1, "PFs" },
};
enum { SELECTIONS = sizeof selections / sizeof *selections };

/* Each mechanism's default beside its hardened mode (dpsel_select_hardened). */
static const contender hardened[] = {
    { "dpsel-EM", dpsel_em, DPSEL_EM, 1, "EM" },
    { "hardened-EM", hardened_em, DPSEL_EM, 1, "EM" },
    { "dpsel-PF", dpsel_pf, DPSEL_PF, 1, "PF" },
    { "hardened-PF", hardened_pf, DPSEL_PF, 1, "PF" },
};
enum { HARDENED = sizeof hardened / sizeof *hardened };

static const contender pmfs[] = {
    { "pmf-EM", pmf_em, DPSEL_EM, 1, "EM" },
    { "pmf-PF", pmf_pf, DPSEL_PF, 1, "PF" },
};
enum { PMFS = sizeof pmfs / sizeof *pmfs };

/* ------------------------------------------------------------ measuring */

/* Runs the contenders round by round, each round in a rotated order, until
 * the budget is spent and at least min_runs rounds are done: machine noise
 * hits all alike.  A sample is the mean of `batch` calls in a row, so that
 * the clock's own cost (about 70 ns on the machine this was written on) vanishes for small
 * n.  A contender that fails keeps its error and is not run again. */
static void time_contenders(const contender *list, size_t count, bench_case *c,
                            const settings *s, unsigned min_runs, size_t batch,
                            measurement *out)
{
    static double times[MAX_CONTENDERS][MAX_RUNS];
    volatile uint64_t sink = 0;
    unsigned runs = 0;
    double start = now();
    for (size_t k = 0; k < count; k++) {
        out[k].status = DPSEL_OK;
    }
    while (runs < MAX_RUNS && (runs < min_runs || now() - start < s->budget)) {
        for (size_t i = 0; i < count; i++) {
            size_t k = (runs + i) % count;
            uint64_t result = 0;
            double t = now();
            for (size_t b = 0; b < batch && out[k].status == DPSEL_OK; b++) {
                out[k].status = list[k].run(c, &result);
                sink ^= result;
            }
            times[k][runs] = (now() - t) / (double)batch;
        }
        runs++;
    }
    for (size_t k = 0; k < count; k++) {
        out[k].runs = runs;
        out[k].median = median(times[k], runs);
    }
}

/* Ends the benchmark when a random source could not be initialised. */
static void random_source(int rc)
{
    if (rc != DPSEL_OK) {
        fprintf(stderr, "bench: random source: %s\n", dpsel_strerror(rc));
        exit(1);
    }
}

/* The untimed pass: random bits drawn by dpsel (through a counting source
 * instead of the OS one) and the peak extra heap, over a few calls. */
static void count_resources(const contender *list, size_t count, bench_case *c,
                            double budget, measurement *out)
{
    counting_source source = { .bits = 0 };
    dpsel_rng counting, *timed = c->rng;
    random_source(dpsel_rng_init_custom(&counting, counting_bit, &source));
    c->rng = &counting;
    for (size_t k = 0; k < count; k++) {
        unsigned runs = 0;
        uint64_t result;
        double start = now();
        source.bits = 0;
        out[k].peak_bytes = 0;
        while (out[k].status == DPSEL_OK && runs < 5
               && (runs == 0 || now() - start < budget)) {
            size_t mark = alloc_mark();
            list[k].run(c, &result);
            size_t peak = alloc_peak_since(mark);
            out[k].peak_bytes = peak > out[k].peak_bytes ? peak : out[k].peak_bytes;
            runs++;
        }
        out[k].random_bytes = runs ? (double)source.bits / 8 / runs : NAN;
    }
    c->rng = timed;
}

/* The entropy (bits) of the output distribution in doubles, for display only,
 * from the number m_g of candidates at each clamped gap g and w_g = beta^g.
 * EM: P_g = w_g / sum_h m_h w_h.  PF, the visiting order drawn as i.i.d.
 * uniform arrival times u: P_g = w_g integral_0^1 F(u) / (1 - w_g u) du with
 * F(u) = prod_h (1 - w_h u)^m_h <= exp(-u sum_h m_h w_h), integrated by
 * composite 3-point Gauss-Legendre up to where that bound is e^-64. */
static double entropy_from_levels(const bench_case *c, dpsel_mechanism mechanism)
{
    enum { PANELS = 400, NODES = 3 * PANELS };
    uint64_t cap = c->params->gap_cap;
    size_t *count = calloc(cap + 1, sizeof *count);
    if (count == NULL) {
        return NAN;
    }
    int64_t best = c->scores[0];
    for (size_t i = 1; i < c->n; i++) {
        best = c->scores[i] > best ? c->scores[i] : best;
    }
    for (size_t i = 0; i < c->n; i++) {
        uint64_t gap = (uint64_t)best - (uint64_t)c->scores[i];
        count[gap < cap ? gap : cap]++;
    }
    double log_beta = log((double)c->params->x) - c->params->y * log(2.0), mass = 0;
    for (uint64_t g = 0; g <= cap; g++) {
        mass += (double)count[g] * exp((double)g * log_beta);
    }
    double u[NODES], weight[NODES], log_f[NODES] = { 0 };
    double end = mass > 64 ? 64 / mass : 1, half = end / PANELS / 2;
    static const double offset[3] = { -0.7745966692414834, 0, 0.7745966692414834 },
                        gauss[3] = { 5.0 / 9, 8.0 / 9, 5.0 / 9 };
    for (int i = 0; i < NODES; i++) {
        u[i] = half * (2 * (i / 3) + 1 + offset[i % 3]);
        weight[i] = half * gauss[i % 3];
    }
    for (uint64_t g = 0; g <= cap && mechanism == DPSEL_PF; g++) {
        for (int i = 0; count[g] > 0 && i < NODES; i++) {
            log_f[i] += (double)count[g] * log1p(-exp((double)g * log_beta) * u[i]);
        }
    }
    double h = 0;
    for (uint64_t g = 0; g <= cap; g++) {
        double w = exp((double)g * log_beta), p = w / mass;
        if (count[g] > 0 && mechanism == DPSEL_PF) {
            p = 0;
            for (int i = 0; i < NODES; i++) {
                p += weight[i] * exp(log_f[i] - log1p(-w * u[i]));
            }
            p *= w;
        }
        h -= count[g] > 0 && p > 0 ? (double)count[g] * p * log2(p) : 0;
    }
    free(count);
    return h;
}

/* The entropy (bits) of the output distribution: from the exact pmf up to
 * ENTROPY_PMF_MAX candidates when dpsel computes it, else in doubles. */
static double entropy(const bench_case *c, dpsel_mechanism mechanism, const char **source)
{
    dpsel_pmf *pmf;
    if (c->n > ENTROPY_PMF_MAX
        || dpsel_pmf_new(&pmf, c->params, mechanism, c->scores, c->n) != DPSEL_OK) {
        *source = "float";
        return entropy_from_levels(c, mechanism);
    }
    double h = 0;
    for (size_t r = 0; r < c->n; r++) {
        char *text;
        if (dpsel_pmf_probability(pmf, r, DPSEL_DECIMAL, &text) != DPSEL_OK) {
            h = NAN;
            break;
        }
        double p = strtod(text, NULL);
        h -= p > 0 ? p * log2(p) : 0;
        dpsel_string_free(text);
    }
    dpsel_pmf_free(pmf);
    *source = "pmf";
    return h;
}

/* ------------------------------------------------------------ reporting */

static const char *status_name(int status)
{
    switch (status) {
    case DPSEL_OK: return "ok";
    case DPSEL_ETOOLARGE: return "ETOOLARGE";
    case DPSEL_ENOMEM: return "ENOMEM";
    default: return dpsel_strerror(status);
    }
}

static double ns_per_candidate(const measurement *m, size_t n)
{
    return m->status == DPSEL_OK ? 1e9 * m->median / (double)n : NAN;
}

/* The measurement of the contender with this mechanism and exactness. */
static const measurement *find(const measurement *m, int mechanism, int exact)
{
    for (size_t k = 0; k < SELECTIONS; k++) {
        if (selections[k].mechanism == mechanism && selections[k].exact == exact) {
            return &m[k];
        }
    }
    return NULL;
}

static void print_selection_header(void)
{
    printf("%-9s %9s %5s %-4s %10s %10s %7s %10s %7s %10s %7s %10s\n", "scores", "n", "eps",
           "mech", "dpsel ns/c", "float ns/c", "x float", "floor ns/c", "x floor", "rand B/sel",
           "H bits", "extra B");
}

static void report_cell(FILE *csv, const char *vector, const bench_case *c, const char *eps,
                        const measurement *m)
{
    const measurement *bandwidth = find(m, FLOOR, 0);
    for (size_t k = 0; k < SELECTIONS; k++) {
        const contender *who = &selections[k];
        const measurement *baseline = who->mechanism == FLOOR ? NULL : find(m, who->mechanism, 0);
        double ns = ns_per_candidate(&m[k], c->n);
        double x_float = baseline ? m[k].median / baseline->median : NAN;
        double x_floor = m[k].median / bandwidth->median;
        const char *source = "";
        double h = who->exact ? entropy(c, (dpsel_mechanism)who->mechanism, &source) : NAN;
        double bytes = who->exact ? m[k].random_bytes : NAN;
        fprintf(csv, "%s,%zu,%s,%s,%s,%u,%.9g,%.4g,%.4g,%.4g,%.4g,%.4g,%s,%zu\n", vector, c->n,
                eps, who->name, status_name(m[k].status), m[k].runs, m[k].median, ns, x_float,
                x_floor, bytes, h, source, m[k].peak_bytes);
        if (who->exact) {
            printf("%-9s %9zu %5s %-4s %10.2f %10.2f %7.2f %10.2f %7.2f %10.1f %7.2f %10zu%s\n",
                   vector, c->n, eps, who->label, ns,
                   ns_per_candidate(baseline, c->n), x_float, ns_per_candidate(bandwidth, c->n),
                   x_floor, bytes, h, m[k].peak_bytes,
                   m[k].status == DPSEL_OK ? "" : status_name(m[k].status));
        }
    }
}

/* A loaded machine slows everyone: the load average goes with the numbers. */
static void print_load(const char *when)
{
    double load[1];
    if (getloadavg(load, 1) == 1) {
        printf("load average %s: %.2f\n", when, load[0]);
    }
}

/* ------------------------------------------------------------ inputs */

/* The counts of a `bin,count` CSV (header and comment lines skipped). */
static int read_counts(const char *path, int64_t **out, size_t *count)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    int64_t *counts = NULL;
    size_t n = 0, capacity = 0;
    char line[256];
    long long bin, value;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lld,%lld", &bin, &value) != 2) {
            continue;
        }
        if (n == capacity) {
            capacity = capacity ? 2 * capacity : 1024;
            int64_t *grown = realloc(counts, capacity * sizeof *counts);
            if (grown == NULL) {
                n = 0;
                break;
            }
            counts = grown;
        }
        counts[n++] = value;
    }
    fclose(f);
    if (n == 0) {  /* empty, or out of memory */
        free(counts);
        return -1;
    }
    *out = counts;
    *count = n;
    return 0;
}

enum { UNIFORM, TWO_LEVEL, TIES, HEPTH, ZIPF, NEAR_TOP, TOP_LAST, NEAR_1000, WIDE, ASCENDING,
       TOP_FIRST, STEPS, VECTORS };
static const char *const vector_names[VECTORS] = {
    "uniform", "two-level", "ties", "hepth", "zipf", "near-top", "top-last", "near-1000",
    "wide", "ascending", "top-first", "steps"
};

/* uniform: integers in [0, 1000]; two-level: 0 then -1000 (gap 1000 for all
 * but the best); ties: all 0; hepth: the HEPTH counts, tiled past 4096;
 * zipf: one peak of a power law, 10^6 / (rank + 1), the ranks in a random
 * order; near-top: 8 candidates at 1000 - j (j < 8) spread through the
 * vector, the rest at 0; top-last: integers in [0, 60], the last one 1000.
 * Adversarial vectors: near-1000: 1000 candidates at 1000 - (j %
 * 16) spread evenly, the rest at 0; wide: uniform integers in [0, 10^6] (a
 * few scattered near the top); ascending: i * 1000 / n, the top last and its
 * neighbours in the last block; top-first: integers in [0, 60], the first
 * one 1000; steps: two levels 1000 apart, one candidate in 2^16 at the top
 * level (pseudo-random), the rest at 0. */
static void fill_scores(int vector, int64_t *scores, size_t n, const int64_t *hepth,
                        size_t hepth_n)
{
    uint64_t state[4];
    size_t near_top_spacing = n / 8 + 1;  /* at most 8 positions are multiples */
    size_t near_1000_spacing = n / 1000 + 1;
    prng_seed(state, 2026);
    for (size_t i = 0; i < n; i++) {
        switch (vector) {
        case UNIFORM: scores[i] = (int64_t)(prng_next(state) % 1001); break;
        case TWO_LEVEL: scores[i] = i == 0 ? 0 : -1000; break;
        case TIES: scores[i] = 0; break;
        case HEPTH: scores[i] = hepth[i % hepth_n]; break;
        case ZIPF: scores[i] = (int64_t)(1000000 / (i + 1)); break;
        case NEAR_TOP:
            scores[i] = i % near_top_spacing == 0 ? 1000 - (int64_t)(i / near_top_spacing) : 0;
            break;
        case TOP_LAST: scores[i] = i + 1 == n ? 1000 : (int64_t)(prng_next(state) % 61); break;
        case NEAR_1000:
            scores[i] = i % near_1000_spacing == 0
                ? 1000 - (int64_t)(i / near_1000_spacing % 16) : 0;
            break;
        case WIDE: scores[i] = (int64_t)(prng_next(state) % 1000001); break;
        case ASCENDING: scores[i] = (int64_t)(i * 1000 / n); break;
        case TOP_FIRST: scores[i] = i == 0 ? 1000 : (int64_t)(prng_next(state) % 61); break;
        default: scores[i] = prng_next(state) % 65536 == 0 ? 1000 : 0; break;
        }
    }
    if (vector == ZIPF) {  /* the ranks in a random order (Fisher-Yates) */
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)(prng_next(state) % i);
            int64_t swap = scores[i - 1];
            scores[i - 1] = scores[j];
            scores[j] = swap;
        }
    }
}

/* ------------------------------------------------------------ the runs */

static int64_t largest(const int64_t *scores, size_t n)
{
    int64_t best = scores[0];
    for (size_t i = 1; i < n; i++) {
        best = scores[i] > best ? scores[i] : best;
    }
    return best;
}

/* The vector of this name, or VECTORS if none. */
static int vector_index(const char *name)
{
    int v = 0;
    while (v < VECTORS && strcmp(vector_names[v], name) != 0) {
        v++;
    }
    return v;
}

/* Whether --vectors chose the vector of this name (all, without it). */
static int vector_chosen(const settings *s, const char *name)
{
    for (size_t i = 0; i < s->vector_count; i++) {
        if (strcmp(s->vectors[i], name) == 0) {
            return 1;
        }
    }
    return s->vector_count == 0;
}

static void bench_selections(const settings *s, dpsel_selector *const *selectors,
                             const dpsel_params *params, FILE *csv)
{
    int64_t *hepth;
    size_t hepth_n, max_n = 0;
    for (size_t i = 0; i < s->n_count; i++) {
        max_n = s->n[i] > max_n ? s->n[i] : max_n;
    }
    int64_t *scores = malloc(max_n * sizeof *scores);
    if (scores == NULL || read_counts(s->hepth, &hepth, &hepth_n) != 0) {
        fprintf(stderr, "bench: cannot read %s or allocate %zu scores\n", s->hepth, max_n);
        exit(1);
    }
    dpsel_rng os;
    random_source(dpsel_rng_init_os(&os));
    print_selection_header();
    for (size_t i = 0; i < s->n_count; i++) {
        for (int v = 0; v < VECTORS; v++) {
            if (!vector_chosen(s, vector_names[v])) {
                continue;
            }
            fill_scores(v, scores, s->n[i], hepth, hepth_n);
            for (size_t e = 0; e < s->eps_count; e++) {
                bench_case c = { scores, s->n[i], strtod(s->eps[e], NULL), &params[e],
                                 selectors[e], &os, { 0 }, largest(scores, s->n[i]) };
                measurement m[SELECTIONS];
                prng_seed(c.prng, 1 + i);
                size_t batch = s->n[i] < BATCH_CANDIDATES ? BATCH_CANDIDATES / s->n[i] : 1;
                time_contenders(selections, SELECTIONS, &c, s, 3, batch, m);
                count_resources(selections, SELECTIONS, &c, s->budget / 4, m);
                report_cell(csv, vector_names[v], &c, s->eps[e], m);
            }
        }
        fflush(stdout);
    }
    dpsel_rng_wipe(&os);
    free(hepth);
    free(scores);
}

/* The hardened mode beside the default, at one epsilon (1 if listed, else
 * the first), for n up to HARDENED_MAX_N (its PF shuffles all n and flips
 * n bitlen(C) coins: a third of a second at 10^6), on two vectors whose
 * default costs differ: its work should not.  At least 3 rounds; at
 * HARDENED_MAX_N no count of the random bytes (a bit at a time through the
 * counter). */
#define HARDENED_MAX_N 1000000
static void bench_hardened(const settings *s, dpsel_selector *const *selectors,
                           const dpsel_params *params, FILE *csv)
{
    static const int vectors[] = { UNIFORM, TWO_LEVEL };
    int any = 0;
    for (size_t i = 0; i < s->n_count; i++) {
        any |= s->n[i] <= HARDENED_MAX_N;
    }
    if (!any) {
        return;
    }
    size_t e = 0;
    while (e + 1 < s->eps_count && strcmp(s->eps[e], "1") != 0) {
        e++;
    }
    e = strcmp(s->eps[e], "1") == 0 ? e : 0;
    dpsel_rng os;
    random_source(dpsel_rng_init_os(&os));
    printf("\nhardened mode (dpsel_select_hardened) beside the default, epsilon %s\n", s->eps[e]);
    printf("%-9s %9s %-4s %12s %13s %10s %12s %13s\n", "scores", "n", "mech",
           "default ns/c", "hardened ns/c", "x default", "default B/sel", "hardened B/sel");
    for (size_t i = 0; i < s->n_count; i++) {
        size_t n = s->n[i];
        if (n > HARDENED_MAX_N) {
            continue;
        }
        int64_t *scores = malloc(n * sizeof *scores);
        if (scores == NULL) {
            fprintf(stderr, "bench: cannot allocate %zu scores\n", n);
            exit(1);
        }
        for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
            fill_scores(vectors[v], scores, n, NULL, 0);
            bench_case c = { scores, n, 0, &params[e], selectors[e], &os, { 0 }, 0 };
            measurement m[HARDENED];
            size_t batch = n < BATCH_CANDIDATES ? BATCH_CANDIDATES / n : 1;
            time_contenders(hardened, HARDENED, &c, s, 3, batch, m);
            if (n < HARDENED_MAX_N) {
                count_resources(hardened, HARDENED, &c, s->budget / 4, m);
            } else {  /* a bit at a time through the counter: minutes; the bytes grow as n */
                for (size_t k = 0; k < HARDENED; k++) {
                    m[k].random_bytes = NAN;
                    m[k].peak_bytes = 0;
                }
            }
            for (size_t k = 0; k < HARDENED; k += 2) {
                const measurement *plain = &m[k], *hard = &m[k + 1];
                char plain_bytes[32] = "-", hard_bytes[32] = "-";
                if (!isnan(hard->random_bytes)) {
                    snprintf(plain_bytes, sizeof plain_bytes, "%.1f", plain->random_bytes);
                    snprintf(hard_bytes, sizeof hard_bytes, "%.1f", hard->random_bytes);
                }
                printf("%-9s %9zu %-4s %12.2f %13.2f %10.1f %12s %13s%s\n",
                       vector_names[vectors[v]], n, k == 0 ? "EM" : "PF",
                       ns_per_candidate(plain, n), ns_per_candidate(hard, n),
                       hard->median / plain->median, plain_bytes, hard_bytes,
                       hard->status == DPSEL_OK ? "" : status_name(hard->status));
            }
            for (size_t k = 0; k < HARDENED; k++) {
                fprintf(csv, "%s,%zu,%s,%s,%s,%u,%.9g,%.4g,,,%.4g,,,%zu\n",
                        vector_names[vectors[v]], n, s->eps[e], hardened[k].name,
                        status_name(m[k].status), m[k].runs, m[k].median,
                        ns_per_candidate(&m[k], n), m[k].random_bytes, m[k].peak_bytes);
            }
        }
        free(scores);
        fflush(stdout);
    }
    dpsel_rng_wipe(&os);
}

/* The exact pmf on each DPBench histogram (4096 bins), whole and summed to
 * 1024 bins. */
static void bench_pmfs(const settings *s, const dpsel_params *params, FILE *csv)
{
    static const size_t bin_counts[] = { 1024, 4096 };
    char pattern[4096];
    glob_t files;
    snprintf(pattern, sizeof pattern, "%s/*.csv", s->dpbench);
    if (glob(pattern, 0, NULL, &files) != 0) {
        printf("\nexact pmf: no DPBench histograms in %s, skipped\n", s->dpbench);
        return;
    }
    printf("\nexact pmf (dpsel_pmf_new), DPBench histograms summed to 1024 bins and whole\n");
    printf("%-12s %5s %5s %14s %14s\n", "histogram", "bins", "eps", "pmf-EM ms", "pmf-PF ms");
    for (size_t f = 0; f < files.gl_pathc; f++) {
        int64_t *counts = NULL;
        size_t n;
        const char *path = files.gl_pathv[f], *name = strrchr(path, '/') + 1;
        int name_length = (int)(strlen(name) - 4);
        if (read_counts(path, &counts, &n) != 0 || n % 4096 != 0) {
            printf("%-12s unreadable or not a multiple of 4096 bins, skipped\n", name);
            free(counts);
            continue;
        }
        for (size_t b = 0; b < sizeof bin_counts / sizeof *bin_counts; b++) {
            int64_t bins[4096] = { 0 };
            size_t bin_count = bin_counts[b];
            for (size_t i = 0; i < n; i++) {
                bins[i / (n / bin_count)] += counts[i];
            }
            for (size_t e = 0; e < s->eps_count; e++) {
                bench_case c = { bins, bin_count, 0, &params[e], NULL, NULL, { 0 }, 0 };
                measurement m[PMFS];
                char cell[PMFS][32];
                time_contenders(pmfs, PMFS, &c, s, 1, 1, m);
                for (size_t k = 0; k < PMFS; k++) {
                    if (m[k].status == DPSEL_OK) {
                        snprintf(cell[k], sizeof cell[k], "%.3f", 1e3 * m[k].median);
                    } else {
                        snprintf(cell[k], sizeof cell[k], "%s", status_name(m[k].status));
                    }
                    fprintf(csv, "pmf:%.*s,%zu,%s,%s,%s,%u,%.9g,,,,,,,\n", name_length, name,
                            bin_count, s->eps[e], pmfs[k].name, status_name(m[k].status),
                            m[k].runs, m[k].median);
                }
                printf("%-12.*s %5zu %5s %14s %14s\n", name_length, name, bin_count, s->eps[e],
                       cell[0], cell[1]);
            }
        }
        free(counts);
    }
    globfree(&files);
}

/* ------------------------------------------------------------ options */

/* Splits a comma-separated list in place; returns the item count, 0 if bad. */
static size_t split(char *list, const char **items)
{
    size_t count = 0;
    for (char *item = strtok(list, ","); item != NULL; item = strtok(NULL, ",")) {
        if (count == MAX_LIST) {
            return 0;
        }
        items[count++] = item;
    }
    return count;
}

static void usage(const char *bad)
{
    fprintf(stderr, "bench: bad option %s\nusage: bench_select [--quick] [--n LIST] "
            "[--eps LIST] [--vectors LIST] [--budget SECONDS] [--csv FILE] [--hepth FILE] [--dpbench DIR] "
            "[--cli TOOL]\n",
            bad);
    exit(2);
}

static void parse_options(int argc, char **argv, settings *s)
{
    static char full_n[] = "1e3,1e4,1e5,1e6,1e7", quick_n[] = "1e3,1e4,1e5,1e6",
                default_eps[] = "0.01,0.1,1,10";
    char *n_list = full_n, *eps_list = default_eps;
    *s = (settings){ .budget = 1.0, .csv = "build/bench.csv", .hepth = "examples/hepth.csv",
                     .dpbench = "../shared/data/dpbench", .cli_n = 10000000 };
    for (int i = 1; i < argc; i++) {
        int has_value = i + 1 < argc;
        if (strcmp(argv[i], "--quick") == 0) {
            n_list = n_list == full_n ? quick_n : n_list;
            s->budget = 0.1;
            s->quick = 1;
            s->cli_n = 1000000;
        } else if (strcmp(argv[i], "--n") == 0 && has_value) {
            n_list = argv[++i];
        } else if (strcmp(argv[i], "--eps") == 0 && has_value) {
            eps_list = argv[++i];
        } else if (strcmp(argv[i], "--vectors") == 0 && has_value) {
            s->vector_count = split(argv[++i], s->vectors);
            for (size_t v = 0; v < s->vector_count; v++) {
                if (vector_index(s->vectors[v]) == VECTORS) {
                    usage(s->vectors[v]);
                }
            }
            if (s->vector_count == 0) {
                usage("--vectors");
            }
        } else if (strcmp(argv[i], "--budget") == 0 && has_value) {
            s->budget = strtod(argv[++i], NULL);
        } else if (strcmp(argv[i], "--csv") == 0 && has_value) {
            s->csv = argv[++i];
        } else if (strcmp(argv[i], "--hepth") == 0 && has_value) {
            s->hepth = argv[++i];
        } else if (strcmp(argv[i], "--dpbench") == 0 && has_value) {
            s->dpbench = argv[++i];
        } else if (strcmp(argv[i], "--cli") == 0 && has_value) {
            s->cli = argv[++i];
        } else {
            usage(argv[i]);
        }
    }
    const char *n_items[MAX_LIST];
    s->n_count = split(n_list, n_items);
    s->eps_count = split(eps_list, s->eps);
    for (size_t i = 0; i < s->n_count; i++) {
        char *end;
        double n = strtod(n_items[i], &end);
        if (*end != '\0' || !(n >= 1 && n <= 1e9) || n != floor(n)) {
            usage(n_items[i]);
        }
        s->n[i] = (size_t)n;
    }
    if (s->n_count == 0 || s->eps_count == 0 || !(s->budget >= 0)) {
        usage("--n, --eps or --budget");
    }
}

int main(int argc, char **argv)
{
    settings s;
    parse_options(argc, argv, &s);
    dpsel_params params[MAX_LIST];
    dpsel_selector *selectors[MAX_LIST];
    for (size_t e = 0; e < s.eps_count; e++) {
        if (dpsel_params_from_epsilon(&params[e], s.eps[e], 1, 0) != DPSEL_OK
            || dpsel_selector_new(&selectors[e], &params[e]) != DPSEL_OK) {
            usage(s.eps[e]);
        }
    }
    FILE *csv = fopen(s.csv, "w");
    if (csv == NULL) {
        fprintf(stderr, "bench: cannot write %s\n", s.csv);
        return 1;
    }
    fprintf(csv, "scores,n,epsilon,contender,status,runs,median_s,ns_per_candidate,"
                 "ratio_to_float,ratio_to_floor,random_bytes,entropy_bits,entropy_source,"
                 "peak_extra_bytes\n");
    printf("dpsel bench: medians of alternating runs (%.2g s per cell, at least 3 runs, "
           "1 for the pmf); sensitivity 1, not monotonic; CSV in %s\n", s.budget, s.csv);
    print_load("at the start");
    bench_selections(&s, selectors, params, csv);
    bench_hardened(&s, selectors, params, csv);
    bench_pmfs(&s, params, csv);
    if (s.cli != NULL) {
        bench_cli(s.cli, s.cli_n);
    }
    bench_quantiles(s.cli, s.quick);
    bench_joint_quantiles(s.quick);
    bench_joint_marginals(s.quick);
    bench_rnm(s.quick);
    print_load("at the end");
    fclose(csv);
    for (size_t e = 0; e < s.eps_count; e++) {
        dpsel_selector_free(selectors[e]);
    }
    return 0;
}
