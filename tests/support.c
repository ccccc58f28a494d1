/* SPDX-License-Identifier: ISC */
/* Shared helpers of dpsel's Criterion tests (see support.h). */
#include "support.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Replays a prefix of bits; a request past it is refused (and noted). */
typedef struct {
    const unsigned char *bits;
    unsigned length;
    unsigned used;
    int wanted_more;
} replay;

static int replay_bit(void *context, unsigned *bit)
{
    replay *r = context;
    if (r->used == r->length) {
        r->wanted_more = 1;
        return 1;
    }
    *bit = r->bits[r->used++];
    return 0;
}

typedef struct {
    sampler_fn sampler;
    void *arg;
    size_t outcomes;
    unsigned max_depth;
    mpq_t *mass;
    mpz_t residual_count;     /* in units of 2^-max_depth */
    mpz_t *mass_count;        /* likewise */
    unsigned char *prefix;
    long complete;
    int failed;
} enumeration;

static void visit(enumeration *e, unsigned depth)
{
    replay source = { e->prefix, depth, 0, 0 };
    dpsel_rng rng;
    size_t outcome = 0;
    cr_assert_eq(dpsel_rng_init_custom(&rng, replay_bit, &source), DPSEL_OK);
    int rc = e->sampler(e->arg, &rng, &outcome);
    if (rc == DPSEL_OK) {
        if (source.used != depth || outcome >= e->outcomes) {
            e->failed = 1;
            return;
        }
        mpz_t unit;
        mpz_init(unit);
        mpz_ui_pow_ui(unit, 2, e->max_depth - depth);
        mpz_add(e->mass_count[outcome], e->mass_count[outcome], unit);
        mpz_clear(unit);
        e->complete++;
    } else if (source.wanted_more) {
        if (depth == e->max_depth) {
            mpz_add_ui(e->residual_count, e->residual_count, 1);
            return;
        }
        for (unsigned char b = 0; b <= 1 && !e->failed; b++) {
            e->prefix[depth] = b;
            visit(e, depth + 1);
        }
    } else {
        e->failed = 1;
    }
}

long enumerate_bits(sampler_fn sampler, void *arg, size_t outcomes, unsigned max_depth,
                    mpq_t *mass, mpq_t residual)
{
    enumeration e = { .sampler = sampler, .arg = arg, .outcomes = outcomes,
                      .max_depth = max_depth, .mass = mass };
    e.prefix = calloc(max_depth + 1, 1);
    e.mass_count = calloc(outcomes, sizeof *e.mass_count);
    cr_assert(e.prefix != NULL && e.mass_count != NULL);
    mpz_init(e.residual_count);
    for (size_t r = 0; r < outcomes; r++) {
        mpz_init(e.mass_count[r]);
    }
    visit(&e, 0);
    mpz_t scale;
    mpz_init(scale);
    mpz_ui_pow_ui(scale, 2, max_depth);
    for (size_t r = 0; r < outcomes; r++) {
        mpq_set_num(mass[r], e.mass_count[r]);
        mpq_set_den(mass[r], scale);
        mpq_canonicalize(mass[r]);
        mpz_clear(e.mass_count[r]);
    }
    mpq_set_num(residual, e.residual_count);
    mpq_set_den(residual, scale);
    mpq_canonicalize(residual);
    mpz_clears(scale, e.residual_count, (mpz_ptr)0);
    free(e.mass_count);
    free(e.prefix);
    return e.failed ? -1 : e.complete;
}

void pmf_rational(const dpsel_pmf *pmf, size_t r, mpq_t out)
{
    char *text = NULL;
    cr_assert_eq(dpsel_pmf_probability(pmf, r, DPSEL_RATIONAL, &text), DPSEL_OK);
    cr_assert_eq(mpq_set_str(out, text, 10), 0, "bad rational %s", text);
    dpsel_string_free(text);
}

void exact_pmf(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores, size_t n,
               mpq_t *out)
{
    dpsel_pmf *pmf = NULL;
    cr_assert_eq(dpsel_pmf_new(&pmf, p, m, scores, n), DPSEL_OK);
    for (size_t r = 0; r < n; r++) {
        mpq_init(out[r]);
        pmf_rational(pmf, r, out[r]);
    }
    dpsel_pmf_free(pmf);
}

/* Upper 1e-6 quantile of chi-square with dof degrees of freedom: exact for
 * 1 and 2, Wilson-Hilferty (accurate to well under 1% here) above. */
static double chi_square_critical(unsigned dof)
{
    const double z = 4.753424;  /* upper 1e-6 quantile of the standard normal */
    if (dof == 1) {
        return 23.9281;
    }
    if (dof == 2) {
        return -2.0 * log(1e-6);
    }
    double a = 2.0 / (9.0 * dof);
    double c = 1.0 - a + z * sqrt(a);
    return dof * c * c * c;
}

int chi_square_fits(const uint64_t *counts, mpq_t *p, size_t k, uint64_t draws,
                    double *statistic, unsigned *dof)
{
    /* Merge consecutive cells until each expects at least 5 draws; a short
     * tail joins the last full cell. */
    double *expected = calloc(k, sizeof *expected);
    double *observed = calloc(k, sizeof *observed);
    cr_assert(expected != NULL && observed != NULL);
    size_t cells = 0;
    int open = 0;
    for (size_t i = 0; i < k; i++) {
        if (!open) {
            expected[cells] = observed[cells] = 0.0;
            open = 1;
        }
        expected[cells] += mpq_get_d(p[i]) * (double)draws;
        observed[cells] += (double)counts[i];
        if (expected[cells] >= 5.0) {
            cells++;
            open = 0;
        }
    }
    if (open && cells > 0) {
        expected[cells - 1] += expected[cells];
        observed[cells - 1] += observed[cells];
    } else if (open) {
        cells = 1;
    }
    double stat = 0.0;
    for (size_t c = 0; c < cells; c++) {
        double d = observed[c] - expected[c];
        stat += d * d / expected[c];
    }
    free(expected);
    free(observed);
    *statistic = stat;
    *dof = cells > 1 ? (unsigned)cells - 1 : 0;
    return cells <= 1 ? 1 : stat < chi_square_critical(*dof);
}

void expect_fit_and_clear(const uint64_t *counts, mpq_t *p, size_t k, uint64_t draws,
                          const char *what)
{
    double statistic;
    unsigned dof;
    cr_expect(chi_square_fits(counts, p, k, draws, &statistic, &dof),
              "%s: chi-square %.2f with %u degrees of freedom", what, statistic, dof);
    for (size_t i = 0; i < k; i++) {
        mpq_clear(p[i]);
    }
}

dpsel_params base_params(uint64_t x, unsigned y, uint64_t sensitivity, int monotonic)
{
    dpsel_params p;
    cr_assert_eq(dpsel_params_from_base(&p, x, y, sensitivity, monotonic), DPSEL_OK);
    return p;
}

void draw_counts(const dpsel_params *p, dpsel_mechanism m, const int64_t *scores,
                 size_t n, dpsel_rng *rng, uint64_t draws, uint64_t *counts)
{
    dpsel_selector *selector = NULL;
    cr_assert_eq(dpsel_selector_new(&selector, p), DPSEL_OK);
    for (uint64_t d = 0; d < draws; d++) {
        size_t index = n;
        cr_assert_eq(dpsel_select(selector, m, scores, n, rng, &index), DPSEL_OK);
        cr_assert_lt(index, n);
        counts[index]++;
    }
    dpsel_selector_free(selector);
}

dpsel_rng seeded_rng(uint64_t seed)
{
    dpsel_rng rng;
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(seed >> (8 * i));
    }
    cr_assert_eq(dpsel_rng_init_seeded(&rng, bytes, sizeof bytes), DPSEL_OK);
    return rng;
}

uint64_t lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

void expect_narrow_1e30(const mpfr_t lo, const mpfr_t hi, const char *what)
{
    mpfr_t width, allowed;
    mpfr_inits2(mpfr_get_prec(lo) + 64, width, allowed, (mpfr_ptr)0);
    mpfr_sub(width, hi, lo, MPFR_RNDU);
    mpfr_set_str(allowed, "1e-30", 10, MPFR_RNDD);
    mpfr_mul(allowed, allowed, lo, MPFR_RNDD);
    cr_expect(mpfr_lessequal_p(width, allowed), "%s: enclosure wider than 1e-30", what);
    cr_expect(mpfr_lessequal_p(lo, hi), "%s: lo > hi", what);
    mpfr_clears(width, allowed, (mpfr_ptr)0);
}

const int64_t pmf_test_vectors[PMF_TEST_VECTORS][6] = {
    { 5, 5, 5, 5, 5, 5 },
    { -3, -1, -7, -1, -2, -40 },
    { INT64_MAX, INT64_MIN, 0, INT64_MAX - 1, -1, INT64_MIN + 1 },
    { 100, 0, 99, 1, 98, 2 },
    { 7, 3, 7, 3, 7, 3 },
};

dpsel_params pmf_test_params(size_t i)
{
    dpsel_params p;
    switch (i) {
    case 0: return base_params(1, 1, 1, 0);
    case 1: return base_params(3, 2, 1, 1);
    case 2: return base_params(13, 4, 3, 0);         /* sensitivity 3 */
    case 3:
        cr_assert_eq(dpsel_params_from_epsilon(&p, "0.7", 1000, 1), DPSEL_OK);
        return p;                                   /* y = 64, sensitivity 1000 */
    default:
        cr_assert_eq(i, 4);
        p = base_params(3, 2, 2, 0);
        cr_assert_eq(dpsel_params_set_gap_cap(&p, 3), DPSEL_OK);
        return p;                                   /* an explicit small cap */
    }
}

/* beta^k as a rational. */
void beta_power(mpq_t out, uint64_t x, unsigned y, uint64_t k)
{
    mpz_ui_pow_ui(mpq_numref(out), x, k);
    mpz_ui_pow_ui(mpq_denref(out), 2, y * k);
    mpq_canonicalize(out);
}

void level_keep_probability(mpq_t out, uint64_t x, unsigned y, uint64_t g, uint64_t members,
                            unsigned envelope, uint64_t draws)
{
    beta_power(out, x, y, g);
    mpz_mul_ui(mpq_numref(out), mpq_numref(out), members);
    mpz_mul_2exp(mpq_numref(out), mpq_numref(out), envelope);
    mpz_mul_ui(mpq_denref(out), mpq_denref(out), draws);
    mpq_canonicalize(out);
}

/* The counter gmp_count_start installed, and the functions it replaced. */
static allocations *gmp_counter;
static void *(*gmp_previous_alloc)(size_t);
static void *(*gmp_previous_realloc)(void *, size_t, size_t);
static void (*gmp_previous_free)(void *, size_t);

static void count_allocation(allocations *counter, size_t size)
{
    counter->calls++;
    counter->largest = size > counter->largest ? size : counter->largest;
}

static void gmp_count(size_t size)
{
    count_allocation(gmp_counter, size);
}

static void *gmp_counted_alloc(size_t size)
{
    gmp_count(size);
    return gmp_previous_alloc(size);
}

static void *gmp_counted_realloc(void *block, size_t old_size, size_t new_size)
{
    gmp_count(new_size);
    return gmp_previous_realloc(block, old_size, new_size);
}

void gmp_count_start(allocations *counter)
{
    counter->calls = 0;
    counter->largest = 0;
    gmp_counter = counter;
    mp_get_memory_functions(&gmp_previous_alloc, &gmp_previous_realloc, &gmp_previous_free);
    mp_set_memory_functions(gmp_counted_alloc, gmp_counted_realloc, gmp_previous_free);
}

void gmp_count_stop(void)
{
    mp_set_memory_functions(gmp_previous_alloc, gmp_previous_realloc, gmp_previous_free);
    gmp_counter = NULL;
}

/* The counter heap_count_start installed (NULL: nothing counted). */
static allocations *heap_counter;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *block, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *block, size_t size);

static void heap_count(size_t size)
{
    if (heap_counter != NULL) {
        count_allocation(heap_counter, size);
    }
}

void *__wrap_malloc(size_t size)
{
    heap_count(size);
    return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    heap_count(size != 0 && n > SIZE_MAX / size ? SIZE_MAX : n * size);
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *block, size_t size)
{
    heap_count(size);
    return __real_realloc(block, size);
}

void heap_count_start(allocations *counter)
{
    counter->calls = 0;
    counter->largest = 0;
    heap_counter = counter;
}

void heap_count_stop(void)
{
    heap_counter = NULL;
}

/* The filter does not check the architecture: the tests run on x86_64 and
 * aarch64 Linux, whose native system call numbers it names. */
int deny_os_randomness(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
#ifdef SYS_open
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
#endif
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { (unsigned short)(sizeof filter / sizeof filter[0]), filter };
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
        && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

int mass_brackets(mpq_t *mass, const mpq_t residual, mpq_t *p, size_t n)
{
    int held = 1;
    mpq_t upper;
    mpq_init(upper);
    for (size_t r = 0; r < n; r++) {
        mpq_add(upper, mass[r], residual);
        held &= mpq_cmp(mass[r], p[r]) <= 0 && mpq_cmp(p[r], upper) <= 0;
    }
    mpq_clear(upper);
    return held;
}

int progress_probe_report(void *context, uint64_t done, uint64_t total)
{
    progress_probe *p = context;
    p->backwards += p->calls > 0 && done < p->last_done;
    p->new_totals += p->calls > 0 && total != p->total;
    p->complete += done == total;
    p->beyond += done > total;
    p->calls++;
    p->last_done = done;
    p->total = total;
    return p->stop_at != 0 && p->calls >= p->stop_at;
}
