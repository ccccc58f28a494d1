# SPDX-License-Identifier: ISC
"""Selector.select's draws against the exact pmf: chi-square goodness of
fit at false-alarm probability 1e-6 per test (tests/README.md's rule).  The
seeds are fixed, so each fit is decided once; the last test shows the fit
can fail."""

import pytest

import dpsel

from conftest import chi_square_fits

DRAWS = 100_000
SCORES = [41, 38, 40, 12, 33, 39, 40]
PARAMS = dpsel.Params.from_epsilon("1", monotonic=True)


def counts_of(draw, n, draws=DRAWS):
    counts = [0] * n
    for _ in range(draws):
        counts[draw()] += 1
    return counts


def draws_of(method, mechanism, seed, draws=DRAWS):
    selector, rng = dpsel.Selector(PARAMS), dpsel.Rng.seeded(seed)
    select = getattr(selector, method)
    return counts_of(lambda: select(SCORES, mechanism, rng), len(SCORES), draws)


def pmf_of(mechanism):
    pmf = dpsel.pmf(PARAMS, SCORES, mechanism)
    return [pmf.probability(i) for i in range(len(pmf))]


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_selections_fit_the_pmf(mechanism):
    fits, statistic, dof = chi_square_fits(draws_of("select", mechanism, b"fit"),
                                           pmf_of(mechanism), DRAWS)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_hardened_selections_fit_the_pmf(mechanism):
    # Fewer draws: hardened EM runs its fixed level trials (about 100 us each).
    draws = DRAWS // 5
    fits, statistic, dof = chi_square_fits(draws_of("select_hardened", mechanism, b"hard", draws),
                                           pmf_of(mechanism), draws)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_the_stream_fits_the_pf_pmf():
    selector, rng = dpsel.Selector(PARAMS), dpsel.Rng.seeded(b"stream")

    def draw():
        with selector.stream(max(SCORES), rng) as stream:
            stream.add_many(SCORES[:3])
            for score in SCORES[3:]:
                stream.add(score)
            return stream.finish()
    fits, statistic, dof = chi_square_fits(counts_of(draw, len(SCORES), DRAWS // 2),
                                           pmf_of("pf"), DRAWS // 2)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_the_fit_can_fail():
    # EM's draws scored against PF's pmf are rejected.
    fits, statistic, dof = chi_square_fits(draws_of("select", "em", b"fit"), pmf_of("pf"), DRAWS)
    assert not fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"
