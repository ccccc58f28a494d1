/* SPDX-License-Identifier: ISC */
/*
 * The utility theorem's lines of `dpsel pmf` (spec/mechanisms.md §15).
 * EM releases a candidate of error (gap) g with probability beta^min(g, C)
 * / Z, Z >= |OPT| (C the gap cap), so P(error >= B) <= (n / |OPT|) beta^B
 * for B <= C: e^-t at B_t = (ln(n / |OPT|) + t) / ln(1/beta), which is
 * 2D/eps (ln(n / |OPT|) + t) for the realised eps (D/eps when monotonic).
 * Past the cap the theorem does not hold and the lines show by how much.
 * The gaps are integers
 * and B_t is never one (else e^t = (1/beta)^B_t |OPT| / n would be
 * rational), so the candidates past the bound are those of gap at least
 * ceil(B_t), decided from an MPFR enclosure of B_t made narrower until both
 * ends have one ceiling.  Their probability is enclosed by the sums of the
 * pmf's printed bounds, rounded outwards: every figure is rigorous but the
 * bound B_t itself, which is shown rounded up.
 */
#include "utility_bound.h"

#include <inttypes.h>
#include <mpfr.h>

#define START_PRECISION 128
#define MAX_PRECISION 65536     /* only keeps the work finite: some precision decides */
#define SUM_PRECISION 256

static const unsigned tail_t[UTILITY_TAILS] = { 1, 2, 5 };

static int64_t best_score(const candidates *cand, size_t *count)
{
    int64_t best = cand->scores[0];
    *count = 0;
    for (size_t r = 0; r < cand->count; r++) {
        if (cand->scores[r] > best) {
            best = cand->scores[r];
            *count = 0;
        }
        *count += cand->scores[r] == best;
    }
    return best;
}

/* The direction opposite to rnd (MPFR_RNDD or MPFR_RNDU). */
static mpfr_rnd_t opposite(mpfr_rnd_t rnd)
{
    return rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
}

/* B_t = (ln(n / m) + t) / ln(2^y / x) rounded in rnd (MPFR_RNDD or
 * MPFR_RNDU) at out's precision; +inf upward while ln(1/beta) is not yet
 * known to be positive. */
static void bound_end(const dpsel_params *params, size_t n, size_t m, unsigned t, mpfr_rnd_t rnd,
                      mpfr_t out)
{
    mpfr_rnd_t other = opposite(rnd);
    mpfr_t rate, part;
    mpfr_inits2(mpfr_get_prec(out), rate, part, (mpfr_ptr)0);
    mpfr_const_log2(rate, other);                /* ln(1/beta) = y ln 2 - ln x */
    mpfr_mul_ui(rate, rate, params->y, other);
    mpfr_set_uj(part, params->x, MPFR_RNDN);     /* exact: 128 bits or more, as n, m */
    mpfr_log(part, part, rnd);
    mpfr_sub(rate, rate, part, other);
    mpfr_set_uj(out, n, MPFR_RNDN);
    mpfr_set_uj(part, m, MPFR_RNDN);
    mpfr_div(out, out, part, rnd);
    mpfr_log(out, out, rnd);
    mpfr_add_ui(out, out, t, rnd);
    if (mpfr_sgn(rate) > 0) {
        mpfr_div(out, out, rate, rnd);
    } else {
        mpfr_set_inf(out, 1);                    /* only upward: a rate from above is > 0 */
    }
    mpfr_clears(rate, part, (mpfr_ptr)0);
}

/* [lo, hi] around B_t, at lo's and hi's precision. */
static void enclose_bound(const dpsel_params *params, size_t n, size_t m, unsigned t, mpfr_t lo,
                          mpfr_t hi)
{
    bound_end(params, n, m, t, MPFR_RNDD, lo);
    bound_end(params, n, m, t, MPFR_RNDU, hi);
}

/* The least gap at or past B_t into *least, or *none when B_t passes every
 * gap (above 2^64 - 1): 0, or -1 when MAX_PRECISION did not decide. */
static int least_gap_past(const dpsel_params *params, size_t n, size_t m, unsigned t,
                          uint64_t *least, int *none)
{
    int decided = 0;
    for (mpfr_prec_t prec = START_PRECISION; prec <= MAX_PRECISION && !decided; prec *= 2) {
        mpfr_t lo, hi;
        mpfr_inits2(prec, lo, hi, (mpfr_ptr)0);
        enclose_bound(params, n, m, t, lo, hi);
        mpfr_ceil(lo, lo);
        mpfr_ceil(hi, hi);
        *none = mpfr_cmp_ui_2exp(lo, 1, 64) >= 0;
        decided = *none || mpfr_equal_p(lo, hi);
        if (decided && !*none) {
            *least = mpfr_get_uj(lo, MPFR_RNDN);
        }
        mpfr_clears(lo, hi, (mpfr_ptr)0);
    }
    return decided ? 0 : -1;
}

/* The text of value rounded in rnd: 17 significant digits. */
static void number_text(const mpfr_t value, mpfr_rnd_t rnd, char *text)
{
    mpfr_snprintf(text, UTILITY_TEXT, "%.17R*g", rnd, value);
}

/* B_t in the scores' unit, rounded up, and e^-t, rounded up. */
static void display_figures(const options *o, const dpsel_params *params, size_t n, size_t m,
                            utility_tail *tail)
{
    mpfr_t lo, hi, unit;
    mpfr_inits2(START_PRECISION, lo, hi, unit, (mpfr_ptr)0);
    enclose_bound(params, n, m, tail->t, lo, hi);
    mpfr_strtofr(unit, score_unit_text(o), NULL, 10, MPFR_RNDU);
    mpfr_mul(hi, hi, unit, MPFR_RNDU);
    number_text(hi, MPFR_RNDU, tail->bound);
    mpfr_set_si(lo, -(long)tail->t, MPFR_RNDN);
    mpfr_exp(lo, lo, MPFR_RNDU);
    number_text(lo, MPFR_RNDU, tail->theorem);
    mpfr_clears(lo, hi, unit, (mpfr_ptr)0);
}

/* The sums, rounded outwards, of the printed bounds of the candidates whose
 * error is past B_t (side 1: gap >= least; none: no gap is) or short of it
 * (side 0). */
static void side_sums(const candidates *cand, int64_t best, uint64_t least, int none, int side,
                      const pmf_text *text, mpfr_t lo, mpfr_t hi)
{
    mpfr_t term;
    mpfr_init2(term, SUM_PRECISION);
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    for (size_t r = 0; r < cand->count; r++) {
        uint64_t gap = (uint64_t)best - (uint64_t)cand->scores[r];  /* best >= score */
        if ((!none && gap >= least) == side) {
            mpfr_strtofr(term, text[r].lower, NULL, 10, MPFR_RNDD);
            mpfr_add(lo, lo, term, MPFR_RNDD);
            mpfr_strtofr(term, text[r].upper, NULL, 10, MPFR_RNDU);
            mpfr_add(hi, hi, term, MPFR_RNDU);
        }
    }
    mpfr_clear(term);
}

/* Whether [lo, hi] is within 2^-80 of hi: narrow enough for 17 digits. */
static int narrow(const mpfr_t lo, const mpfr_t hi)
{
    mpfr_t width;
    mpfr_init2(width, SUM_PRECISION);
    mpfr_sub(width, hi, lo, MPFR_RNDU);
    mpfr_mul_2si(width, width, 80, MPFR_RNDU);
    int narrow = mpfr_lessequal_p(width, hi);
    mpfr_clear(width);
    return narrow;
}

/* The tail's probability, enclosed from the pmf's printed bounds: when most
 * candidates are past B_t, 1 minus the sums over the others (the
 * probabilities sum to 1 exactly), which reads few of them, if that is
 * narrow (a tiny tail of many candidates is not); else the sums over the
 * candidates past B_t.  Rounded outwards. */
static void tail_probability(const candidates *cand, int64_t best, uint64_t least, int none,
                             const pmf_text *text, utility_tail *tail)
{
    size_t inside = 0;
    for (size_t r = 0; r < cand->count && !none; r++) {
        inside += (uint64_t)best - (uint64_t)cand->scores[r] >= least;
    }
    mpfr_t lo, hi, rest_lo, rest_hi;
    mpfr_inits2(SUM_PRECISION, lo, hi, rest_lo, rest_hi, (mpfr_ptr)0);
    int done = 0;
    if (inside > cand->count / 2) {
        side_sums(cand, best, least, none, 0, text, rest_lo, rest_hi);
        mpfr_ui_sub(lo, 1, rest_hi, MPFR_RNDD);
        mpfr_ui_sub(hi, 1, rest_lo, MPFR_RNDU);
        done = narrow(lo, hi);
    }
    if (!done) {
        side_sums(cand, best, least, none, 1, text, lo, hi);
    }
    if (mpfr_sgn(lo) <= 0) {
        mpfr_set_zero(lo, 1);                   /* a probability, and "0", not "-0" */
    }
    if (mpfr_cmp_ui(hi, 1) > 0) {
        mpfr_set_ui(hi, 1, MPFR_RNDN);
    }
    number_text(lo, MPFR_RNDD, tail->lower);
    number_text(hi, MPFR_RNDU, tail->upper);
    mpfr_clears(lo, hi, rest_lo, rest_hi, (mpfr_ptr)0);
}

int utility_tails_make(const options *o, const dpsel_params *params, const candidates *cand,
                       const pmf_text *text, utility_tails *tails, cli_error *e)
{
    int64_t best = best_score(cand, &tails->optimal);
    tails->candidates = cand->count;
    for (int i = 0; i < UTILITY_TAILS; i++) {
        utility_tail *tail = &tails->tail[i];
        uint64_t least = 0;
        int none = 0;
        tail->t = tail_t[i];
        if (least_gap_past(params, cand->count, tails->optimal, tail->t, &least, &none) != 0) {
            return cli_fail(e, EXIT_CANNOT_COMPLETE, "pmf: the utility bound at t = %u was not "
                            "decided at %d bits", tail->t, MAX_PRECISION);
        }
        display_figures(o, params, cand->count, tails->optimal, tail);
        tail_probability(cand, best, least, none, text, tail);
    }
    return 0;
}

static void print_json(FILE *out, dpsel_mechanism mechanism, const utility_tails *tails)
{
    fprintf(out, ", \"utility_bound\": {\"theorem\": \"em\", \"applies\": %s, \"candidates\": "
            "%zu, \"optimal\": %zu, \"tails\": [", mechanism == DPSEL_EM ? "true" : "false",
            tails->candidates, tails->optimal);
    for (int i = 0; i < UTILITY_TAILS; i++) {
        const utility_tail *tail = &tails->tail[i];
        fprintf(out, "%s{\"t\": %u, \"bound\": \"%s\", \"probability_enclosure\": [\"%s\", "
                "\"%s\"], \"e_minus_t\": \"%s\"}", i == 0 ? "" : ", ", tail->t, tail->bound,
                tail->lower, tail->upper, tail->theorem);
    }
    fputs("]}", out);
}

static void print_text(FILE *out, dpsel_mechanism mechanism, const utility_tails *tails)
{
    fprintf(out, "# %s: P(error >= B_t) <= e^-t, B_t = (ln(n/|OPT|) + t) / ln(1/base), "
            "n %zu, |OPT| %zu\n", mechanism == DPSEL_EM ? "utility theorem (EM)"
            : "EM's utility theorem, not claimed for PF, for comparison", tails->candidates,
            tails->optimal);
    for (int i = 0; i < UTILITY_TAILS; i++) {
        const utility_tail *tail = &tails->tail[i];
        fprintf(out, "# t %u: B_t %s, P(error >= B_t) in [%s, %s], e^-t %s\n", tail->t,
                tail->bound, tail->lower, tail->upper, tail->theorem);
    }
}

void utility_tails_print(FILE *out, int json, dpsel_mechanism mechanism,
                         const utility_tails *tails)
{
    (json ? print_json : print_text)(out, mechanism, tails);
}
