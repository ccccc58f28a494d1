/* SPDX-License-Identifier: ISC */
/*
 * The distribution of the k best by peeling (dpsel_select_top): the ordered
 * tuple (r_1, ..., r_k) has probability prod_j P_j(r_j), P_j the pmf of the
 * mechanism over the candidates left after r_1 .. r_(j-1) (the rounds are
 * independent given the candidates left).  The tree of those sets is built
 * whole: one pmf per node (a prefix of the tuple), every tuple a path.  A
 * tuple's enclosure is the product of its rounds' enclosures, rounded down
 * and up (all factors non-negative: the product is monotonic in each); its
 * exact value the product of their exact rationals, when they are held.
 */
#include <stdlib.h>
#include <string.h>

#include "exact.h"
#include "mpfr_env.h"

/* The most tuples a top pmf holds. */
#define TOP_PMF_TUPLES_MAX ((size_t)1 << 16)

/* A prefix: the pmf over the candidates it leaves, and their positions. */
typedef struct {
    dpsel_pmf *pmf;
    size_t *origin;            /* the pmf's candidate j is candidate origin[j] */
} top_node;

struct dpsel_top_pmf {
    size_t n, k;
    size_t count;              /* tuples */
    size_t nodes_used, nodes_max;
    top_node *nodes;
    size_t *index;             /* count x k: each tuple's candidates */
    size_t *node;              /* count x k: the node of each round */
    size_t *local;             /* count x k: the candidate within that node's pmf */
    mpfr_t *lo, *hi;           /* count: each tuple's enclosure */
};

/* n (n - 1) ... (n - d + 1), or 0 above the limit. */
static size_t falling(size_t n, size_t d)
{
    size_t product = 1;
    for (size_t i = 0; i < d; i++) {
        if (product > TOP_PMF_TUPLES_MAX / (n - i)) {
            return 0;
        }
        product *= n - i;
    }
    return product;
}

/* The build's state: the parameters and the tuple being extended. */
typedef struct {
    dpsel_top_pmf *top;
    const dpsel_params *params;
    dpsel_mechanism mechanism;
    size_t filled;             /* tuples written */
    size_t path_node[64];      /* the current prefix's nodes and choices */
    size_t path_local[64];
    size_t path_index[64];
} top_build;

static void write_tuple(top_build *b, size_t depth)
{
    dpsel_top_pmf *top = b->top;
    size_t t = b->filled++;
    for (size_t j = 0; j <= depth; j++) {
        top->index[t * top->k + j] = b->path_index[j];
        top->node[t * top->k + j] = b->path_node[j];
        top->local[t * top->k + j] = b->path_local[j];
    }
}

/* The node of the candidates scores[0 .. left - 1] (positions origin),
 * then its children, depth first in the candidates' order. */
static int build_node(top_build *b, const int64_t *scores, const size_t *origin, size_t left,
                      size_t depth)
{
    dpsel_top_pmf *top = b->top;
    size_t id = top->nodes_used++;
    top_node *node = &top->nodes[id];
    node->origin = malloc(left * sizeof *node->origin);
    if (node->origin == NULL) {
        return DPSEL_ENOMEM;
    }
    memcpy(node->origin, origin, left * sizeof *origin);
    int rc = dpsel_pmf_new(&node->pmf, b->params, b->mechanism, scores, left);
    int64_t *child_scores = NULL;
    size_t *child_origin = NULL;
    if (rc == DPSEL_OK && depth + 1 < top->k) {
        child_scores = malloc((left - 1) * sizeof *child_scores);
        child_origin = malloc((left - 1) * sizeof *child_origin);
        rc = child_scores == NULL || child_origin == NULL ? DPSEL_ENOMEM : DPSEL_OK;
    }
    for (size_t j = 0; j < left && rc == DPSEL_OK; j++) {
        b->path_node[depth] = id;
        b->path_local[depth] = j;
        b->path_index[depth] = origin[j];
        if (depth + 1 == top->k) {
            write_tuple(b, depth);
            continue;
        }
        /* the others, in order: the child's candidates */
        memcpy(child_scores, scores, j * sizeof *scores);
        memcpy(child_scores + j, scores + j + 1, (left - 1 - j) * sizeof *scores);
        memcpy(child_origin, origin, j * sizeof *origin);
        memcpy(child_origin + j, origin + j + 1, (left - 1 - j) * sizeof *origin);
        rc = build_node(b, child_scores, child_origin, left - 1, depth + 1);
    }
    free(child_scores);
    free(child_origin);
    return rc;
}

/* Each tuple's enclosure: the product of its rounds' bounds. */
static void enclose_tuples(dpsel_top_pmf *top)
{
    mpfr_t lo, hi;
    mpfr_inits2(MPFR_PREC_MIN, lo, hi, (mpfr_ptr)0);
    for (size_t t = 0; t < top->count; t++) {
        mpfr_set_ui(top->lo[t], 1, MPFR_RNDD);
        mpfr_set_ui(top->hi[t], 1, MPFR_RNDU);
        for (size_t j = 0; j < top->k; j++) {
            const top_node *node = &top->nodes[top->node[t * top->k + j]];
            dpsel_exact_pmf_probability_mpfr(node->pmf, top->local[t * top->k + j], lo, hi);
            mpfr_mul(top->lo[t], top->lo[t], lo, MPFR_RNDD);
            mpfr_mul(top->hi[t], top->hi[t], hi, MPFR_RNDU);
        }
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
}

void dpsel_top_pmf_free(dpsel_top_pmf *top)
{
    if (top == NULL) {
        return;
    }
    for (size_t i = 0; i < top->nodes_used; i++) {
        dpsel_pmf_free(top->nodes[i].pmf);
        free(top->nodes[i].origin);
    }
    free(top->nodes);
    free(top->index);
    free(top->node);
    free(top->local);
    dpsel_exact_numbers_free(top->lo, top->lo != NULL ? top->count : 0);
    dpsel_exact_numbers_free(top->hi, top->hi != NULL ? top->count : 0);
    free(top);
}

/* The arrays of a top pmf whose n, k and count are set. */
static int allocate(dpsel_top_pmf *top)
{
    for (size_t d = 0; d < top->k; d++) {
        top->nodes_max += falling(top->n, d);
    }
    top->nodes = calloc(top->nodes_max, sizeof *top->nodes);
    top->index = malloc(top->count * top->k * sizeof *top->index);
    top->node = malloc(top->count * top->k * sizeof *top->node);
    top->local = malloc(top->count * top->k * sizeof *top->local);
    /* 64 bits above the rounds' 128 keep k <= 64 roundings well inside 1e-30 */
    top->lo = dpsel_exact_numbers_new(top->count, 192);
    top->hi = dpsel_exact_numbers_new(top->count, 192);
    return top->nodes == NULL || top->index == NULL || top->node == NULL || top->local == NULL
           || top->lo == NULL || top->hi == NULL ? DPSEL_ENOMEM : DPSEL_OK;
}

static int build(dpsel_top_pmf *top, const dpsel_params *params, dpsel_mechanism mechanism,
                 const int64_t *scores)
{
    int rc = allocate(top);
    size_t *origin = malloc(top->n * sizeof *origin);
    if (rc == DPSEL_OK && origin == NULL) {
        rc = DPSEL_ENOMEM;
    }
    if (rc == DPSEL_OK) {
        for (size_t i = 0; i < top->n; i++) {
            origin[i] = i;
        }
        top_build b = { top, params, mechanism, 0, { 0 }, { 0 }, { 0 } };
        rc = build_node(&b, scores, origin, top->n, 0);
    }
    free(origin);
    if (rc == DPSEL_OK) {
        enclose_tuples(top);
    }
    return rc;
}

int dpsel_top_pmf_new(dpsel_top_pmf **out, const dpsel_params *params, dpsel_mechanism mechanism,
                      const int64_t *scores, size_t n, size_t k)
{
    if (out == NULL || params == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    int rc = dpsel_exact_check_distribution(params, mechanism, n);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (k == 0 || k > n) {
        return DPSEL_ERANGE;
    }
    size_t count = falling(n, k);
    if (count == 0 || k > 64) {
        return DPSEL_ETOOLARGE;
    }
    dpsel_top_pmf *top = calloc(1, sizeof *top);
    if (top == NULL) {
        return DPSEL_ENOMEM;
    }
    top->n = n;
    top->k = k;
    top->count = count;
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    rc = build(top, params, mechanism, scores);
    dpsel_exact_mpfr_leave(&host);
    if (rc != DPSEL_OK) {
        dpsel_top_pmf_free(top);
        return rc;
    }
    *out = top;
    return DPSEL_OK;
}

size_t dpsel_top_pmf_count(const dpsel_top_pmf *top)
{
    return top != NULL ? top->count : 0;
}

int dpsel_top_pmf_tuple(const dpsel_top_pmf *top, size_t t, size_t *indices)
{
    if (top == NULL || indices == NULL) {
        return DPSEL_ENULL;
    }
    if (t >= top->count) {
        return DPSEL_ERANGE;
    }
    memcpy(indices, &top->index[t * top->k], top->k * sizeof *indices);
    return DPSEL_OK;
}

/* Tuple t's exact probability into value: the product of its rounds'
 * exact rationals (each pmf computes them on its first request), or
 * DPSEL_ETOOLARGE when a round's are beyond the limits. */
static int exact_tuple(const dpsel_top_pmf *top, size_t t, mpq_t value)
{
    mpq_set_ui(value, 1, 1);
    for (size_t j = 0; j < top->k; j++) {
        const top_node *node = &top->nodes[top->node[t * top->k + j]];
        int rc = dpsel_exact_pmf_exact_ready(node->pmf);
        if (rc != DPSEL_OK) {
            return rc;
        }
        mpq_mul(value, value,
                dpsel_exact_pmf_probability_exact(node->pmf, top->local[t * top->k + j]));
    }
    return DPSEL_OK;
}

static int tuple_text(const dpsel_top_pmf *top, size_t t, dpsel_format format, char **out)
{
    int rc = format == DPSEL_DECIMAL
             ? dpsel_exact_enclosure_to_decimal(top->lo[t], top->hi[t], out) : DPSEL_ETOOLARGE;
    if (rc == DPSEL_ETOOLARGE) {
        mpq_t value;
        mpq_init(value);
        rc = exact_tuple(top, t, value);
        if (rc == DPSEL_OK) {
            rc = dpsel_exact_rational_to_string(value, format, out);
        }
        mpq_clear(value);
    }
    return rc;
}

int dpsel_top_pmf_probability(const dpsel_top_pmf *top, size_t t, dpsel_format format,
                              char **out)
{
    if (top == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (t >= top->count || (format != DPSEL_DECIMAL && format != DPSEL_RATIONAL)) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    char *text = NULL;
    int rc = tuple_text(top, t, format, &text);
    dpsel_exact_mpfr_leave(&host);
    if (rc == DPSEL_OK) {
        *out = text;
    }
    return rc;
}

int dpsel_top_pmf_probability_bounds(const dpsel_top_pmf *top, size_t t, unsigned digits,
                                     char **lo, char **hi)
{
    if (top == NULL || lo == NULL || hi == NULL) {
        return DPSEL_ENULL;
    }
    if (t >= top->count || digits < 1 || digits > 100) {
        return DPSEL_ERANGE;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = dpsel_exact_bounds_to_strings(top->lo[t], top->hi[t], digits, lo, hi);
    dpsel_exact_mpfr_leave(&host);
    return rc;
}
