/* SPDX-License-Identifier: ISC */
/*
 * The distribution of the k best by peeling (dpsel_select_top): the ordered
 * tuple (r_1, ..., r_k) has probability prod_j P_j(r_j), P_j the pmf of the
 * mechanism over the candidates left after r_1 .. r_(j-1) (the rounds are
 * independent given the candidates left).  The tree of those sets is built
 * whole: one pmf per node (a prefix of the tuple), every tuple a path; a
 * last round's leaf serves every prefix that leaves the same scores.  A
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
    uint64_t exact_work;       /* the exact rationals' size (dpsel_top_pmf_exact_size), */
    uint64_t exact_bits;       /* saturated at UINT64_MAX */
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

static uint64_t add_saturated(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t multiply_saturated(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* A node's pmf counted in the exact size: its work once, and its
 * rationals' bits once in each of the `tuples` through it. */
static void count_exact_size(dpsel_top_pmf *top, const dpsel_pmf *pmf, int with_work,
                             uint64_t tuples)
{
    uint64_t work, bits;
    dpsel_exact_pmf_exact_size(pmf, &work, &bits);
    if (with_work) {
        top->exact_work = add_saturated(top->exact_work, work);
    }
    top->exact_bits = add_saturated(top->exact_bits, multiply_saturated(bits, tuples));
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

/* The first of the candidates with candidate j's score: removing it or j
 * leaves the same scores, whose pmf is the same. */
static size_t first_twin(const int64_t *scores, size_t j)
{
    size_t twin = 0;
    while (scores[twin] != scores[j]) {
        twin++;
    }
    return twin;
}

/* The last round after candidate j of a node (depth + 1 == k - 1 rounds
 * chosen), read from the leaf of an earlier twin < j instead of a pmf of
 * its own: a candidate p keeps its place there but j - 1 stands for the
 * twin (j's place in the twin's leaf, with the same score). */
static void write_twin_leaf(top_build *b, const size_t *origin, size_t left, size_t depth,
                            size_t j, size_t twin, size_t twin_node)
{
    for (size_t p = 0; p < left; p++) {
        if (p == j) {
            continue;
        }
        b->path_node[depth + 1] = twin_node;
        b->path_local[depth + 1] = p == twin ? j - 1 : p - (p > twin);
        b->path_index[depth + 1] = origin[p];
        write_tuple(b, depth + 1);
    }
    count_exact_size(b->top, b->top->nodes[twin_node].pmf, 0, left - 1);
}

/* A node's children's candidates, and the leaves made so far (by the
 * candidate each removes) when the children are leaves. */
typedef struct {
    int64_t *scores;
    size_t *origin;
    size_t *leaf;
} children;

static int children_new(children *c, size_t left, int leaves)
{
    c->scores = malloc((left - 1) * sizeof *c->scores);
    c->origin = malloc((left - 1) * sizeof *c->origin);
    c->leaf = leaves ? malloc(left * sizeof *c->leaf) : NULL;
    return c->scores == NULL || c->origin == NULL || (leaves && c->leaf == NULL)
           ? DPSEL_ENOMEM : DPSEL_OK;
}

static void children_free(children *c)
{
    free(c->scores);
    free(c->origin);
    free(c->leaf);
}

static int build_node(top_build *b, const int64_t *scores, const size_t *origin, size_t left,
                      size_t depth);

/* The subtree after candidate j of a node: a child over the others, in
 * order, or for the last round the leaf of an earlier twin. */
static int build_child(top_build *b, children *c, const int64_t *scores, const size_t *origin,
                       size_t left, size_t depth, size_t j)
{
    if (c->leaf != NULL) {
        size_t twin = first_twin(scores, j);
        if (twin < j) {
            write_twin_leaf(b, origin, left, depth, j, twin, c->leaf[twin]);
            return DPSEL_OK;
        }
        c->leaf[j] = b->top->nodes_used;
    }
    memcpy(c->scores, scores, j * sizeof *scores);
    memcpy(c->scores + j, scores + j + 1, (left - 1 - j) * sizeof *scores);
    memcpy(c->origin, origin, j * sizeof *origin);
    memcpy(c->origin + j, origin + j + 1, (left - 1 - j) * sizeof *origin);
    return build_node(b, c->scores, c->origin, left - 1, depth + 1);
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
    if (rc == DPSEL_OK) {
        count_exact_size(top, node->pmf, 1, falling(left, top->k - depth));
    }
    children c = { NULL, NULL, NULL };
    if (rc == DPSEL_OK && depth + 1 < top->k) {
        rc = children_new(&c, left, depth + 2 == top->k);
    }
    for (size_t j = 0; j < left && rc == DPSEL_OK; j++) {
        b->path_node[depth] = id;
        b->path_local[depth] = j;
        b->path_index[depth] = origin[j];
        if (depth + 1 == top->k) {
            write_tuple(b, depth);
        } else {
            rc = build_child(b, &c, scores, origin, left, depth, j);
        }
    }
    children_free(&c);
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

/* The checks of a top-k request before any work: *count receives the
 * number of ordered k-tuples, n! / (n - k)!. */
static int check_top_request(const dpsel_params *params, dpsel_mechanism mechanism, size_t n,
                             size_t k, size_t *count)
{
    int rc = dpsel_exact_check_distribution(params, mechanism, n);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (k == 0 || k > n) {
        return DPSEL_ERANGE;
    }
    *count = falling(n, k);
    return *count == 0 || k > 64 ? DPSEL_ETOOLARGE : DPSEL_OK;
}

int dpsel_top_pmf_new(dpsel_top_pmf **out, const dpsel_params *params, dpsel_mechanism mechanism,
                      const int64_t *scores, size_t n, size_t k)
{
    if (out == NULL || params == NULL || scores == NULL) {
        return DPSEL_ENULL;
    }
    size_t count = 0;
    int rc = check_top_request(params, mechanism, n, k, &count);
    if (rc != DPSEL_OK) {
        return rc;
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

/* The first round's pmf is the root of the tree of prefixes: build_node
 * counts its work once and its bits once per tuple (all of them pass
 * through it), and adds only more for the other nodes: so its share is a
 * lower bound of each, computed from its levels alone. */
int dpsel_top_pmf_exact_bound(const dpsel_params *params, dpsel_mechanism mechanism,
                              const int64_t *scores, size_t n, size_t k, uint64_t *work,
                              uint64_t *bits)
{
    if (params == NULL || scores == NULL || work == NULL || bits == NULL) {
        return DPSEL_ENULL;
    }
    size_t count = 0;
    int rc = check_top_request(params, mechanism, n, k, &count);
    if (rc != DPSEL_OK) {
        return rc;
    }
    uint64_t root_bits = 0;
    rc = dpsel_exact_exact_size_of(params, mechanism, scores, NULL, n, work, &root_bits);
    *bits = multiply_saturated(root_bits, count);
    return rc;
}

int dpsel_top_pmf_exact_size(const dpsel_top_pmf *top, uint64_t *work, uint64_t *bits)
{
    if (top == NULL || work == NULL || bits == NULL) {
        return DPSEL_ENULL;
    }
    *work = top->exact_work;
    *bits = top->exact_bits;
    return DPSEL_OK;
}

/* Tuple t's exact probability into value: the product of its rounds'
 * exact rationals (each pmf computes them on its first request), or
 * DPSEL_ETOOLARGE, before any exact work, when the tuples' rationals
 * together are beyond the limits (or a round's are). */
static int exact_tuple(const dpsel_top_pmf *top, size_t t, mpq_t value)
{
    if (top->exact_work > DPSEL_TOP_PMF_EXACT_WORK_MAX
        || top->exact_bits > DPSEL_TOP_PMF_EXACT_BITS_MAX) {
        return DPSEL_ETOOLARGE;
    }
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
