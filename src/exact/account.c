/* SPDX-License-Identifier: ISC */
/*
 * The privacy accountant (spec/accounting.md §2-§6).  Every figure is an
 * upper bound computed in MPFR: each operation is rounded in the direction
 * that raises the result (each operand entering with the sign and bound
 * that raise it), the same discipline as the pmf's enclosures.  A figure
 * "at delta" is an epsilon whose delta, bounded from above, is at most a
 * lower bound of the delta asked for: any such epsilon is a valid
 * guarantee, the searches only make it small.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/validate.h"
#include "exact.h"
#include "mpfr_env.h"

#define PREC 256
#define SEARCH_PREC 64
#define DECIMAL_TEXT_MAX 4096
#define BISECTIONS 72           /* the searches' steps: epsilon to 2^-72 of its range */
#define RELEASES_MAX ((uint64_t)1 << 62)
#define TEXT_DIGITS 17
#define EXACT_EXPONENT_MAX 4096 /* decimals held as rationals: 10^+-4096 at most */

typedef struct {
    dpsel_mechanism mechanism;
    mpfr_t epsilon;             /* an upper bound of the release's epsilon */
    int exact;                  /* 1 when `value` holds the epsilon itself: */
    mpq_t value;                /* a decimal's, for the exact sums */
    uint64_t count;
} release;

struct dpsel_accountant {
    release *releases;
    size_t used, capacity;
    uint64_t total;
};

int dpsel_accountant_new(dpsel_accountant **out)
{
    if (out == NULL) {
        return DPSEL_ENULL;
    }
    dpsel_accountant *a = calloc(1, sizeof *a);
    if (a == NULL) {
        return DPSEL_ENOMEM;
    }
    *out = a;
    return DPSEL_OK;
}

void dpsel_accountant_free(dpsel_accountant *accountant)
{
    if (accountant != NULL) {
        for (size_t i = 0; i < accountant->used; i++) {
            mpfr_clear(accountant->releases[i].epsilon);
            mpq_clear(accountant->releases[i].value);
        }
        free(accountant->releases);
        free(accountant);
    }
}

/* Room for one more release; its epsilon initialised to 0. */
static release *next_release(dpsel_accountant *a)
{
    if (a->used == a->capacity) {
        size_t grown = a->capacity == 0 ? 8 : a->capacity * 2;
        release *more = realloc(a->releases, grown * sizeof *more);
        if (more == NULL) {
            return NULL;
        }
        a->releases = more;
        a->capacity = grown;
    }
    release *r = &a->releases[a->used];
    mpfr_init2(r->epsilon, PREC);
    mpfr_set_zero(r->epsilon, 1);
    mpq_init(r->value);
    r->exact = 0;
    return r;
}

static int check_release(const dpsel_accountant *a, dpsel_mechanism mechanism, uint64_t count)
{
    if ((mechanism != DPSEL_EM && mechanism != DPSEL_PF && mechanism != DPSEL_RNM) || count == 0
        || count > RELEASES_MAX - a->total) {
        return DPSEL_ERANGE;
    }
    return DPSEL_OK;
}

static void keep_release(dpsel_accountant *a, release *r, dpsel_mechanism mechanism,
                         uint64_t count)
{
    r->mechanism = mechanism;
    r->count = count;
    a->used++;
    a->total += count;
}

/* The decimal text (of dpsel_core_decimal_syntax's form) as an exact
 * rational, when its exponent is moderate: 1, else 0. */
static int exact_decimal(const char *text, mpq_t value)
{
    const char *mark = strpbrk(text, "eE");
    long exponent = mark != NULL ? strtol(mark + 1, NULL, 10) : 0;
    size_t length = mark != NULL ? (size_t)(mark - text) : strlen(text);
    const char *point = memchr(text, '.', length);
    long fraction = point != NULL ? (long)(length - (size_t)(point - text) - 1) : 0;
    exponent -= fraction;
    if (exponent > EXACT_EXPONENT_MAX || exponent < -EXACT_EXPONENT_MAX) {
        return 0;
    }
    char *digits = malloc(length + 1);
    if (digits == NULL) {
        return 0;
    }
    size_t used = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '.') {
            digits[used++] = text[i];
        }
    }
    digits[used] = '\0';
    mpz_set_str(mpq_numref(value), digits, 10);  /* digits only: cannot fail */
    free(digits);
    mpz_set_ui(mpq_denref(value), 1);
    mpz_t power;
    mpz_init(power);
    mpz_ui_pow_ui(power, 10, (unsigned long)(exponent < 0 ? -exponent : exponent));
    if (exponent < 0) {
        mpz_set(mpq_denref(value), power);
    } else {
        mpz_mul(mpq_numref(value), mpq_numref(value), power);
    }
    mpz_clear(power);
    mpq_canonicalize(value);
    return 1;
}

int dpsel_accountant_add(dpsel_accountant *accountant, dpsel_mechanism mechanism,
                         const char *epsilon, uint64_t count)
{
    if (accountant == NULL || epsilon == NULL) {
        return DPSEL_ENULL;
    }
    int rc = check_release(accountant, mechanism, count);
    if (rc != DPSEL_OK) {
        return rc;
    }
    if (!dpsel_core_decimal_syntax(epsilon, DECIMAL_TEXT_MAX)) {
        return DPSEL_EEPSILON;
    }
    release *r = next_release(accountant);
    if (r == NULL) {
        return DPSEL_ENOMEM;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    mpfr_strtofr(r->epsilon, epsilon, NULL, 10, MPFR_RNDU);
    int positive = mpfr_sgn(r->epsilon) > 0;
    dpsel_exact_mpfr_leave(&host);
    if (!positive) {
        mpfr_clear(r->epsilon);
        mpq_clear(r->value);
        return DPSEL_EEPSILON;
    }
    r->exact = exact_decimal(epsilon, r->value);
    keep_release(accountant, r, mechanism, count);
    return DPSEL_OK;
}

int dpsel_accountant_add_params(dpsel_accountant *accountant, dpsel_mechanism mechanism,
                                const dpsel_params *params, uint64_t count)
{
    if (accountant == NULL || params == NULL) {
        return DPSEL_ENULL;
    }
    int rc = check_release(accountant, mechanism, count);
    /* report noisy max has no base-2 parameters: its epsilon is a decimal */
    if (rc != DPSEL_OK || mechanism == DPSEL_RNM || !dpsel_core_params_valid(params)) {
        return DPSEL_ERANGE;
    }
    release *r = next_release(accountant);
    if (r == NULL) {
        return DPSEL_ENOMEM;
    }
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    dpsel_exact_add_epsilon(r->epsilon, params, 1);
    dpsel_exact_mpfr_leave(&host);
    keep_release(accountant, r, mechanism, count);
    return DPSEL_OK;
}

/* ------------------------------------------------------------- the sums */

/* Sum of count x epsilon^power x scale over the releases (of mechanism
 * `only`, or all for -1), rounded up; scale a power of two 2^shift. */
static void release_sum(const dpsel_accountant *a, int only, unsigned power, long shift,
                        mpfr_t out)
{
    mpfr_t term;
    mpfr_init2(term, PREC);
    mpfr_set_zero(out, 1);
    for (size_t i = 0; i < a->used; i++) {
        const release *r = &a->releases[i];
        if (only >= 0 && (int)r->mechanism != only) {
            continue;
        }
        mpfr_pow_ui(term, r->epsilon, power, MPFR_RNDU);
        mpfr_mul_ui(term, term, (unsigned long)r->count, MPFR_RNDU);
        mpfr_mul_2si(term, term, shift, MPFR_RNDU);
        mpfr_add(out, out, term, MPFR_RNDU);
    }
    mpfr_clear(term);
}

static int every_release_exact(const dpsel_accountant *a)
{
    for (size_t i = 0; i < a->used; i++) {
        if (!a->releases[i].exact) {
            return 0;
        }
    }
    return 1;
}

/* The exact sums over decimal epsilons: pure = sum count eps, rho = sum
 * count eps^2 / 8 (EM) or / 2 (PF, RNM). */
static void exact_sums(const dpsel_accountant *a, mpq_t pure, mpq_t rho)
{
    mpq_t term;
    mpq_init(term);
    for (size_t i = 0; i < a->used; i++) {
        const release *r = &a->releases[i];
        mpq_set_ui(term, (unsigned long)r->count, 1);
        mpq_mul(term, term, r->value);
        mpq_add(pure, pure, term);
        mpq_mul(term, term, r->value);
        mpq_div_2exp(term, term, r->mechanism == DPSEL_EM ? 3 : 1);
        mpq_add(rho, rho, term);
    }
    mpq_clear(term);
}

/* rho = sum eps^2 / 8 over EM + sum eps^2 / 2 over PF and RNM (generic
 * eps-DP releases), rounded up. */
static void zcdp_rho(const dpsel_accountant *a, mpfr_t rho)
{
    mpfr_t part;
    mpfr_init2(part, PREC);
    release_sum(a, DPSEL_EM, 2, -3, rho);
    release_sum(a, DPSEL_PF, 2, -1, part);
    mpfr_add(rho, rho, part, MPFR_RNDU);
    release_sum(a, DPSEL_RNM, 2, -1, part);
    mpfr_add(rho, rho, part, MPFR_RNDU);
    mpfr_clear(part);
}

/* The largest epsilon (exact: one of the releases'). */
static void largest_epsilon(const dpsel_accountant *a, mpfr_t out)
{
    mpfr_set(out, a->releases[0].epsilon, MPFR_RNDN);
    for (size_t i = 1; i < a->used; i++) {
        mpfr_max(out, out, a->releases[i].epsilon, MPFR_RNDN);
    }
}

static int every_release_em(const dpsel_accountant *a)
{
    for (size_t i = 0; i < a->used; i++) {
        if (a->releases[i].mechanism != DPSEL_EM) {
            return 0;
        }
    }
    return 1;
}

/* ---------------------------------------------------- zCDP at a delta */

/* eps(alpha) = alpha rho + (L + (alpha - 1) ln(1 - 1/alpha) - ln alpha) /
 * (alpha - 1), L = ln(1/delta): for every alpha > 1 a valid epsilon (CKS
 * 2020).  Rounded up at out's precision, from upper bounds rho and L and
 * an alpha with alpha - 1 = s exact. */
static void cks_epsilon(const mpfr_t rho, const mpfr_t ln_inverse_delta, const mpfr_t s,
                        mpfr_t out)
{
    mpfr_prec_t prec = mpfr_get_prec(out);
    mpfr_t alpha, inverse, tail, lnalpha;
    mpfr_inits2(prec + mpfr_get_prec(s), alpha, inverse, tail, lnalpha, (mpfr_ptr)0);
    mpfr_add_ui(alpha, s, 1, MPFR_RNDN);            /* exact: precision of s plus room */
    mpfr_ui_div(inverse, 1, alpha, MPFR_RNDD);
    mpfr_ui_sub(tail, 1, inverse, MPFR_RNDU);       /* 1 - 1/alpha, rounded up */
    mpfr_log(tail, tail, MPFR_RNDU);                /* negative: rounded toward 0 */
    mpfr_mul(tail, tail, s, MPFR_RNDU);
    mpfr_add(tail, tail, ln_inverse_delta, MPFR_RNDU);
    mpfr_log(lnalpha, alpha, MPFR_RNDD);
    mpfr_sub(tail, tail, lnalpha, MPFR_RNDU);
    mpfr_div(tail, tail, s, MPFR_RNDU);
    mpfr_mul(out, alpha, rho, MPFR_RNDU);
    mpfr_add(out, out, tail, MPFR_RNDU);
    mpfr_clears(alpha, inverse, tail, lnalpha, (mpfr_ptr)0);
}

/* The least of CKS's epsilons over alpha - 1 = e^u, u in [-40, 40], by a
 * ternary search at 64 bits (any alpha is valid: the search only makes the
 * bound small), then the chosen alpha's epsilon at full precision. */
static void zcdp_epsilon(const mpfr_t rho, const mpfr_t ln_inverse_delta, mpfr_t out)
{
    mpfr_t lo, hi, m1, m2, s, f1, f2;
    mpfr_inits2(SEARCH_PREC, lo, hi, m1, m2, s, f1, f2, (mpfr_ptr)0);
    mpfr_set_si(lo, -40, MPFR_RNDN);
    mpfr_set_si(hi, 40, MPFR_RNDN);
    for (int step = 0; step < 200; step++) {
        mpfr_sub(m1, hi, lo, MPFR_RNDN);
        mpfr_div_ui(m1, m1, 3, MPFR_RNDN);          /* a third of the range */
        mpfr_sub(m2, hi, m1, MPFR_RNDN);
        mpfr_add(m1, lo, m1, MPFR_RNDN);
        mpfr_exp(s, m1, MPFR_RNDN);
        cks_epsilon(rho, ln_inverse_delta, s, f1);
        mpfr_exp(s, m2, MPFR_RNDN);
        cks_epsilon(rho, ln_inverse_delta, s, f2);
        if (mpfr_less_p(f1, f2)) {
            mpfr_set(hi, m2, MPFR_RNDN);
        } else {
            mpfr_set(lo, m1, MPFR_RNDN);
        }
    }
    mpfr_exp(s, lo, MPFR_RNDN);
    cks_epsilon(rho, ln_inverse_delta, s, out);
    mpfr_clears(lo, hi, m1, m2, s, f1, f2, (mpfr_ptr)0);
}

/* --------------------------------------------- bounded range, adaptively */

/* An upper bound of ln(e^eps - 1): directly below 1, else as eps + ln(1 -
 * e^-eps), which stays finite where e^eps overflows MPFR's range. */
static void log_expm1_up(const mpfr_t eps, mpfr_t out)
{
    if (mpfr_cmp_ui(eps, 1) < 0) {
        mpfr_expm1(out, eps, MPFR_RNDU);
        mpfr_log(out, out, MPFR_RNDU);
        return;
    }
    mpfr_neg(out, eps, MPFR_RNDN);
    mpfr_exp(out, out, MPFR_RNDD);
    mpfr_neg(out, out, MPFR_RNDN);
    mpfr_log1p(out, out, MPFR_RNDU);                /* ln(1 - e^-eps) <= 0 */
    mpfr_add(out, out, eps, MPFR_RNDU);
}

/* KL*(eps) = x - 1 - ln x, x = eps / (e^eps - 1): the most a single
 * eps-bounded-range release's privacy loss has as its mean, rounded up.
 * With u = ln x <= 0 it is e^u - 1 - u, which falls as u grows: so from a
 * lower bound of u = ln eps - ln(e^eps - 1), evaluated upward. */
static void mean_loss(const mpfr_t eps, mpfr_t out)
{
    mpfr_t u, ln;
    mpfr_inits2(PREC, u, ln, (mpfr_ptr)0);
    mpfr_log(u, eps, MPFR_RNDD);
    log_expm1_up(eps, ln);
    mpfr_sub(u, u, ln, MPFR_RNDD);
    mpfr_expm1(out, u, MPFR_RNDU);
    mpfr_sub(out, out, u, MPFR_RNDU);
    mpfr_clears(u, ln, (mpfr_ptr)0);
}

/* sum count KL*(eps) + sqrt(sum count eps^2 L / 2), rounded up: the loss
 * exceeds it with probability at most delta (Azuma-Hoeffding, §4). */
static void bounded_range_adaptive(const dpsel_accountant *a, const mpfr_t ln_inverse_delta,
                                   mpfr_t out)
{
    mpfr_t term, spread;
    mpfr_inits2(PREC, term, spread, (mpfr_ptr)0);
    mpfr_set_zero(out, 1);
    for (size_t i = 0; i < a->used; i++) {
        mean_loss(a->releases[i].epsilon, term);
        mpfr_mul_ui(term, term, (unsigned long)a->releases[i].count, MPFR_RNDU);
        mpfr_add(out, out, term, MPFR_RNDU);
    }
    release_sum(a, -1, 2, -1, spread);
    mpfr_mul(spread, spread, ln_inverse_delta, MPFR_RNDU);
    mpfr_sqrt(spread, spread, MPFR_RNDU);
    mpfr_add(out, out, spread, MPFR_RNDU);
    mpfr_clears(term, spread, (mpfr_ptr)0);
}

/* ----------------------------------------------- optimal compositions */

/* What an optimal composition's delta depends on: k releases of epsilon
 * eps (exact), and the working numbers. */
typedef struct {
    uint64_t k;
    mpfr_srcptr eps;
} homogeneous;

/* An upper bound of a composition's delta at epsilon_g. */
typedef void (*delta_fn)(const homogeneous *c, const mpfr_t epsilon_g, mpfr_t delta);

/* term *= (k - i) / (i + 1) x ratio, rounded in rnd: C(k, i) p^i q^(k-i)
 * to the next i. */
static void binomial_step(mpfr_t term, uint64_t k, uint64_t i, const mpfr_t ratio,
                          mpfr_rnd_t rnd)
{
    mpfr_mul_ui(term, term, (unsigned long)(k - i), rnd);
    mpfr_div_ui(term, term, (unsigned long)(i + 1), rnd);
    mpfr_mul(term, term, ratio, rnd);
}

/* KOV: delta(eps') = sum_j [P_j - e^eps' Q_j]_+, P_j = C(k, j) p^j (1-p)^(k-j)
 * and Q_j = C(k, j) (1-p)^j p^(k-j), p = e^eps / (1 + e^eps): the k-fold
 * randomised response, which dominates any k eps-DP releases, adaptive or
 * not.  Upper: P_j from above, Q_j and e^eps' from below. */
static void kov_delta(const homogeneous *c, const mpfr_t epsilon_g, mpfr_t delta)
{
    mpfr_t p_up, p_lo, q_up, q_lo, up_ratio, lo_ratio, pj, qj, grow, term;
    mpfr_inits2(PREC, p_up, p_lo, q_up, q_lo, up_ratio, lo_ratio, pj, qj, grow, term,
                (mpfr_ptr)0);
    /* p = 1 / (1 + e^-eps), 1 - p = 1 / (1 + e^eps) */
    mpfr_neg(term, c->eps, MPFR_RNDN);
    mpfr_exp(p_up, term, MPFR_RNDD);
    mpfr_add_ui(p_up, p_up, 1, MPFR_RNDD);
    mpfr_ui_div(p_up, 1, p_up, MPFR_RNDU);
    mpfr_exp(p_lo, term, MPFR_RNDU);
    mpfr_add_ui(p_lo, p_lo, 1, MPFR_RNDU);
    mpfr_ui_div(p_lo, 1, p_lo, MPFR_RNDD);
    mpfr_exp(q_up, c->eps, MPFR_RNDD);
    mpfr_add_ui(q_up, q_up, 1, MPFR_RNDD);
    mpfr_ui_div(q_up, 1, q_up, MPFR_RNDU);
    mpfr_exp(q_lo, c->eps, MPFR_RNDU);
    mpfr_add_ui(q_lo, q_lo, 1, MPFR_RNDU);
    mpfr_ui_div(q_lo, 1, q_lo, MPFR_RNDD);
    mpfr_div(up_ratio, p_up, q_lo, MPFR_RNDU);     /* P_j's step: p / (1 - p) */
    mpfr_div(lo_ratio, q_lo, p_up, MPFR_RNDD);     /* Q_j's step: (1 - p) / p */
    mpfr_pow_ui(pj, q_up, (unsigned long)c->k, MPFR_RNDU);
    mpfr_pow_ui(qj, p_lo, (unsigned long)c->k, MPFR_RNDD);
    mpfr_exp(grow, epsilon_g, MPFR_RNDD);
    mpfr_set_zero(delta, 1);
    for (uint64_t j = 0; j <= c->k; j++) {
        mpfr_mul(term, grow, qj, MPFR_RNDD);
        mpfr_sub(term, pj, term, MPFR_RNDU);
        if (mpfr_sgn(term) > 0) {
            mpfr_add(delta, delta, term, MPFR_RNDU);
        }
        if (j < c->k) {
            binomial_step(pj, c->k, j, up_ratio, MPFR_RNDU);
            binomial_step(qj, c->k, j, lo_ratio, MPFR_RNDD);
        }
    }
    mpfr_clears(p_up, p_lo, q_up, q_lo, up_ratio, lo_ratio, pj, qj, grow, term, (mpfr_ptr)0);
}

/* The k-fold generalised randomised response at t in [t_lo, t_hi]: delta
 * = sum_i C(k, i) q^i (1-q)^(k-i) [e^(k t - (k-i) eps) - e^eps_g]_+, q =
 * (e^-t - e^-eps) / (1 - e^-eps), bounded from above over the interval
 * (q from t_lo, 1 - q and the exponent from t_hi). */
static void grr_delta(const homogeneous *c, const mpfr_t epsilon_g, const mpfr_t t_lo,
                      const mpfr_t t_hi, mpfr_t delta)
{
    mpfr_t scale, q, rest, ratio, weight, gain, step, floor_g, term;
    mpfr_inits2(PREC, scale, q, rest, ratio, weight, gain, step, floor_g, term, (mpfr_ptr)0);
    mpfr_neg(term, c->eps, MPFR_RNDN);
    mpfr_expm1(scale, term, MPFR_RNDU);            /* e^-eps - 1, rounded up: */
    mpfr_neg(scale, scale, MPFR_RNDN);             /* 1 - e^-eps, rounded down */
    mpfr_neg(term, t_lo, MPFR_RNDN);
    mpfr_exp(q, term, MPFR_RNDU);
    mpfr_neg(term, c->eps, MPFR_RNDN);
    mpfr_exp(term, term, MPFR_RNDD);
    mpfr_sub(q, q, term, MPFR_RNDU);
    mpfr_div(q, q, scale, MPFR_RNDU);
    mpfr_neg(term, t_hi, MPFR_RNDN);
    mpfr_expm1(rest, term, MPFR_RNDD);             /* e^-t - 1, rounded down: */
    mpfr_neg(rest, rest, MPFR_RNDN);               /* 1 - e^-t, rounded up */
    mpfr_div(rest, rest, scale, MPFR_RNDU);
    mpfr_div(ratio, q, rest, MPFR_RNDU);
    mpfr_pow_ui(weight, rest, (unsigned long)c->k, MPFR_RNDU);
    /* e^(k t_hi - (k - i) eps) = e^(k (t_hi - eps)) e^(i eps) */
    mpfr_sub(gain, t_hi, c->eps, MPFR_RNDU);
    mpfr_mul_ui(gain, gain, (unsigned long)c->k, MPFR_RNDU);
    mpfr_exp(gain, gain, MPFR_RNDU);
    mpfr_exp(step, c->eps, MPFR_RNDU);
    mpfr_exp(floor_g, epsilon_g, MPFR_RNDD);
    mpfr_set_zero(delta, 1);
    for (uint64_t i = 0; i <= c->k; i++) {
        mpfr_sub(term, gain, floor_g, MPFR_RNDU);
        if (mpfr_sgn(term) > 0) {
            mpfr_mul(term, term, weight, MPFR_RNDU);
            mpfr_add(delta, delta, term, MPFR_RNDU);
        }
        if (i < c->k) {
            binomial_step(weight, c->k, i, ratio, MPFR_RNDU);
            mpfr_mul(gain, gain, step, MPFR_RNDU);
        }
    }
    mpfr_clears(scale, q, rest, ratio, weight, gain, step, floor_g, term, (mpfr_ptr)0);
}

/* DDR's non-adaptive optimum: the largest k-fold GRR delta over t in
 * [0, eps].  It is attained at one of t_l = (eps_g + (l + 1) eps) / (k + 1),
 * l < k (§5), so the largest of their upper bounds (each t_l enclosed in
 * an interval) bounds it. */
static void bounded_range_delta(const homogeneous *c, const mpfr_t epsilon_g, mpfr_t delta)
{
    mpfr_t t_lo, t_hi, value;
    mpfr_inits2(PREC, t_lo, t_hi, value, (mpfr_ptr)0);
    mpfr_set_zero(delta, 1);
    for (uint64_t l = 0; l < c->k; l++) {
        mpfr_mul_ui(t_lo, c->eps, (unsigned long)(l + 1), MPFR_RNDD);
        mpfr_add(t_lo, t_lo, epsilon_g, MPFR_RNDD);
        mpfr_div_ui(t_lo, t_lo, (unsigned long)(c->k + 1), MPFR_RNDD);
        mpfr_mul_ui(t_hi, c->eps, (unsigned long)(l + 1), MPFR_RNDU);
        mpfr_add(t_hi, t_hi, epsilon_g, MPFR_RNDU);
        mpfr_div_ui(t_hi, t_hi, (unsigned long)(c->k + 1), MPFR_RNDU);
        if (mpfr_cmp(t_lo, c->eps) >= 0) {
            break;  /* t_l only grows with l: the rest lie beyond eps */
        }
        if (mpfr_cmp(t_hi, c->eps) > 0) {
            mpfr_set(t_hi, c->eps, MPFR_RNDN);
        }
        grr_delta(c, epsilon_g, t_lo, t_hi, value);
        mpfr_max(delta, delta, value, MPFR_RNDU);
    }
    mpfr_clears(t_lo, t_hi, value, (mpfr_ptr)0);
}

/* The least epsilon_g in [0, k eps] whose delta's upper bound is at most
 * delta_lo: 0 itself when its bound is (delta at least the releases' total
 * variation distance), else to 2^-72 of the range by bisection (delta falls as
 * epsilon_g grows; at k eps both deltas are 0).  out: an epsilon_g whose
 * bound was checked. */
static void least_epsilon(delta_fn delta_of, const homogeneous *c, const mpfr_t delta_lo,
                          mpfr_t out)
{
    mpfr_t lo, hi, mid, delta;
    mpfr_inits2(PREC, lo, hi, mid, delta, (mpfr_ptr)0);
    mpfr_set_zero(lo, 1);
    mpfr_mul_ui(hi, c->eps, (unsigned long)c->k, MPFR_RNDU);
    delta_of(c, lo, delta);
    if (mpfr_lessequal_p(delta, delta_lo)) {
        mpfr_set(hi, lo, MPFR_RNDN);
    }
    for (int step = 0; step < BISECTIONS && !mpfr_zero_p(hi); step++) {
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        delta_of(c, mid, delta);
        if (mpfr_lessequal_p(delta, delta_lo)) {
            mpfr_set(hi, mid, MPFR_RNDN);
        } else {
            mpfr_set(lo, mid, MPFR_RNDN);
        }
    }
    mpfr_set(out, hi, MPFR_RNDU);
    mpfr_clears(lo, hi, mid, delta, (mpfr_ptr)0);
}

/* -------------------------------------------------------------- report */

/* delta as a lower bound, and ln(1/delta) as an upper bound. */
static int read_delta(const char *text, mpfr_t delta_lo, mpfr_t ln_inverse)
{
    if (!dpsel_core_decimal_syntax(text, DECIMAL_TEXT_MAX)) {
        return DPSEL_EEPSILON;
    }
    mpfr_t up;
    mpfr_init2(up, PREC);
    mpfr_strtofr(delta_lo, text, NULL, 10, MPFR_RNDD);
    mpfr_strtofr(up, text, NULL, 10, MPFR_RNDU);
    int inside = mpfr_sgn(delta_lo) > 0 && mpfr_cmp_ui(up, 1) < 0;
    mpfr_clear(up);
    if (!inside) {
        return DPSEL_ERANGE;
    }
    mpfr_log(ln_inverse, delta_lo, MPFR_RNDD);
    mpfr_neg(ln_inverse, ln_inverse, MPFR_RNDN);
    return DPSEL_OK;
}

/* The figures: text, and the best so far (its value in best). */
typedef struct {
    dpsel_account *out;
    mpfr_t best;
    const char *best_text;
    int rc;
} report;

/* The upper bound as a figure's text (DPSEL_ACCOUNT_TEXT bytes): 17 digits
 * rounded up, "0" for a negative bound (epsilon 0 holds whenever a negative
 * epsilon does: the loss never exceeds it), "inf" for no finite bound. */
static int figure_text(mpfr_t value, char *text)
{
    if (mpfr_sgn(value) < 0) {
        mpfr_set_zero(value, 1);
    }
    char wide[TEXT_DIGITS + DPSEL_EXACT_TEXT_EXTRA];
    int rc = dpsel_exact_mpfr_text(value, TEXT_DIGITS, MPFR_RNDU, wide);
    if (rc == DPSEL_OK && strlen(wide) >= DPSEL_ACCOUNT_TEXT) {
        rc = DPSEL_EINTERNAL;  /* not reached: no sign, at most 19 exponent digits */
    }
    if (rc == DPSEL_OK) {
        strcpy(text, wide);
    }
    return rc;
}

/* A figure stated: its text, and the best so far if it is less.  value may
 * be raised to 0 (figure_text). */
static void state(report *r, mpfr_t value, char *text, const char *method)
{
    if (r->rc == DPSEL_OK) {
        r->rc = figure_text(value, text);
    }
    if (r->rc == DPSEL_OK && (r->out->best_method == NULL || mpfr_less_p(value, r->best))) {
        mpfr_set(r->best, value, MPFR_RNDU);
        r->out->best_method = method;
        r->best_text = text;
    }
}

/* The figures at delta: zCDP, bounded range, dp-optimal. */
static void at_delta(const dpsel_accountant *a, const mpfr_t rho, const mpfr_t delta_lo,
                     const mpfr_t ln_inverse, dpsel_composition composition, report *r)
{
    mpfr_t value, eps;
    mpfr_inits2(PREC, value, eps, (mpfr_ptr)0);
    zcdp_epsilon(rho, ln_inverse, value);
    state(r, value, r->out->zcdp, "zcdp");
    largest_epsilon(a, eps);
    const homogeneous c = { a->total, eps };
    if (every_release_em(a)) {
        if (composition == DPSEL_NONADAPTIVE && a->total <= DPSEL_ACCOUNT_NONADAPTIVE_MAX) {
            least_epsilon(bounded_range_delta, &c, delta_lo, value);
            r->out->bounded_range_composition = "non-adaptive";
        } else {
            bounded_range_adaptive(a, ln_inverse, value);
            r->out->bounded_range_composition = "adaptive";
        }
        state(r, value, r->out->bounded_range, "bounded-range");
    }
    if (a->total <= DPSEL_ACCOUNT_OPTIMAL_MAX) {
        least_epsilon(kov_delta, &c, delta_lo, value);
        state(r, value, r->out->dp_optimal, "dp-optimal");
    }
    mpfr_clears(value, eps, (mpfr_ptr)0);
}

/* Pure epsilon and rho, from above; exactly (and their texts rounded up in
 * decimal) when every epsilon is a decimal held as a rational. */
static void sums(const dpsel_accountant *a, mpfr_t pure, mpfr_t rho, report *r)
{
    if (every_release_exact(a)) {
        mpq_t exact_pure, exact_rho;
        mpq_inits(exact_pure, exact_rho, (mpq_ptr)0);
        exact_sums(a, exact_pure, exact_rho);
        mpfr_set_q(pure, exact_pure, MPFR_RNDU);
        mpfr_set_q(rho, exact_rho, MPFR_RNDU);
        state(r, pure, r->out->pure, "pure");
        dpsel_exact_rational_upper_text(exact_pure, r->out->pure);
        dpsel_exact_rational_upper_text(exact_rho, r->out->rho);
        mpq_clears(exact_pure, exact_rho, (mpq_ptr)0);
        return;
    }
    release_sum(a, -1, 1, 0, pure);
    state(r, pure, r->out->pure, "pure");
    zcdp_rho(a, rho);
    if (r->rc == DPSEL_OK) {
        r->rc = figure_text(rho, r->out->rho);
    }
}

static int account(const dpsel_accountant *a, const char *delta, dpsel_composition composition,
                   dpsel_account *out)
{
    report r = { out, { { 0 } }, NULL, DPSEL_OK };
    mpfr_t pure, rho, delta_lo, ln_inverse;
    mpfr_inits2(PREC, r.best, pure, rho, delta_lo, ln_inverse, (mpfr_ptr)0);
    memset(out, 0, sizeof *out);
    out->releases = a->total;
    out->bounded_range_composition = "";
    if (delta != NULL) {
        r.rc = read_delta(delta, delta_lo, ln_inverse);
    }
    sums(a, pure, rho, &r);
    if (r.rc == DPSEL_OK && delta != NULL) {
        at_delta(a, rho, delta_lo, ln_inverse, composition, &r);
    }
    if (r.rc == DPSEL_OK) {
        strcpy(out->best, r.best_text);
    }
    mpfr_clears(r.best, pure, rho, delta_lo, ln_inverse, (mpfr_ptr)0);
    return r.rc;
}

int dpsel_accountant_report(const dpsel_accountant *accountant, const char *delta,
                            dpsel_composition composition, dpsel_account *out)
{
    if (accountant == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (accountant->used == 0) {
        return DPSEL_EEMPTY;
    }
    if (composition != DPSEL_ADAPTIVE && composition != DPSEL_NONADAPTIVE) {
        return DPSEL_ERANGE;
    }
    dpsel_account result;
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    int rc = account(accountant, delta, composition, &result);
    dpsel_exact_mpfr_leave(&host);
    if (rc == DPSEL_OK) {
        *out = result;
    }
    return rc;
}

/* -------------------------------------------------------------- groups */

/* A copy of a's releases with every epsilon `group` times larger (the
 * bound rounded up, the rationals exactly): what each release is for
 * groups (§8).  NULL when out of memory. */
static dpsel_accountant *scaled_copy(const dpsel_accountant *a, uint64_t group)
{
    dpsel_accountant *copy = calloc(1, sizeof *copy);
    release *releases = calloc(a->used, sizeof *releases);
    if (copy == NULL || releases == NULL) {
        free(copy);
        free(releases);
        return NULL;
    }
    copy->releases = releases;
    copy->capacity = a->used;   /* so next_release never grows it */
    for (size_t i = 0; i < a->used; i++) {
        const release *from = &a->releases[i];
        release *to = next_release(copy);
        mpfr_mul_ui(to->epsilon, from->epsilon, (unsigned long)group, MPFR_RNDU);
        mpq_set_ui(to->value, (unsigned long)group, 1);
        mpq_mul(to->value, to->value, from->value);
        to->exact = from->exact;
        keep_release(copy, to, from->mechanism, from->count);
    }
    return copy;
}

/* group x factor x the decimal text (an upper bound of a figure, or the
 * delta asked), rounded up into text: exactly when factor is NULL (for 1)
 * and the decimal is held as a rational, else in MPFR from the text read
 * upward. */
static int scaled_text(const char *decimal, uint64_t group, mpfr_srcptr factor, char *text)
{
    mpq_t exact;
    mpq_init(exact);
    int held = factor == NULL && exact_decimal(decimal, exact);
    int rc = DPSEL_OK;
    if (held) {
        mpz_mul_ui(mpq_numref(exact), mpq_numref(exact), (unsigned long)group);
        mpq_canonicalize(exact);
        dpsel_exact_rational_upper_text(exact, text);
    } else {
        mpfr_t value;
        mpfr_init2(value, PREC);
        mpfr_strtofr(value, decimal, NULL, 10, MPFR_RNDU);
        if (factor != NULL) {
            mpfr_mul(value, value, factor, MPFR_RNDU);
        }
        mpfr_mul_ui(value, value, (unsigned long)group, MPFR_RNDU);
        rc = figure_text(value, text);
        mpfr_clear(value);
    }
    mpq_clear(exact);
    return rc;
}

/* The group privacy theorem on the individual guarantee (best, delta):
 * (group best, group e^((group - 1) best) delta), rounded up; the factor
 * e^0 of a group of 1 is exact, and so is its delta. */
static int theorem_figures(const char *best, const char *delta, uint64_t group,
                           dpsel_group_account *out)
{
    if (strcmp(best, "inf") == 0) {
        strcpy(out->epsilon, "inf");
        strcpy(out->delta, "inf");
        return DPSEL_OK;
    }
    mpfr_t spread;
    mpfr_init2(spread, PREC);
    mpfr_strtofr(spread, best, NULL, 10, MPFR_RNDU);
    mpfr_mul_ui(spread, spread, (unsigned long)(group - 1), MPFR_RNDU);
    mpfr_exp(spread, spread, MPFR_RNDU);
    int rc = scaled_text(best, group, NULL, out->epsilon);
    if (rc == DPSEL_OK) {
        rc = scaled_text(delta, group, group == 1 ? NULL : spread, out->delta);
    }
    mpfr_clear(spread);
    return rc;
}

int dpsel_accountant_report_group(const dpsel_accountant *accountant, const char *delta,
                                  dpsel_composition composition, uint64_t group,
                                  dpsel_group_account *out)
{
    if (accountant == NULL || out == NULL) {
        return DPSEL_ENULL;
    }
    if (group == 0 || group > DPSEL_ACCOUNT_GROUP_MAX) {
        return DPSEL_ERANGE;
    }
    dpsel_account individual;
    int rc = dpsel_accountant_report(accountant, delta, composition, &individual);
    if (rc != DPSEL_OK) {
        return rc;
    }
    dpsel_group_account result;
    memset(&result, 0, sizeof result);
    result.group = group;
    dpsel_mpfr_env host;
    dpsel_exact_mpfr_enter(&host);
    dpsel_accountant *scaled = scaled_copy(accountant, group);
    rc = scaled == NULL ? DPSEL_ENOMEM : account(scaled, delta, composition, &result.account);
    if (rc == DPSEL_OK && delta != NULL) {
        rc = theorem_figures(individual.best, delta, group, &result);
    }
    dpsel_exact_mpfr_leave(&host);
    dpsel_accountant_free(scaled);
    if (rc == DPSEL_OK) {
        *out = result;
    }
    return rc;
}
