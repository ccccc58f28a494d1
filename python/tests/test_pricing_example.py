# SPDX-License-Identifier: ISC
"""examples/pricing.sh (the lecture notes' Example 1) agrees with
dpsel.best_price: its revenue table is p x #{bids >= p} computed here in
Decimal, its exact distributions are those of the revenues best_price
selects from (in units of 0.01, sensitivity max(price), monotonic), and
with SEED its releases are best_price's with Rng.seeded on the same seed,
for PF and EM (and RNM when the tool has it)."""

import os
import subprocess
from decimal import Decimal

import pytest

import dpsel

from conftest import REPO, TOOL

BIDS = REPO / "examples" / "pricing.csv"
PRICES = [f"{cents // 100}.{cents % 100:02d}" for cents in range(100, 1001, 50)]
SEEDS = ["01", "5eed", "ab", "1234", "c0ffee", "40"]


def bids():
    return [line.strip() for line in BIDS.read_text().splitlines()
            if line.strip() and line[0].isdigit()]


def run_example(seed):
    environment = dict(os.environ, SEED=seed)
    result = subprocess.run(["sh", str(REPO / "examples" / "pricing.sh"), str(TOOL)],
                            env=environment, capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def sections(lines):
    """The revenue table, and per mechanism its probability rows and choice."""
    table, pmfs, chosen, current = {}, {}, {}, None
    for line in lines:
        if line.startswith("# ") and ":" in line and line[2:].split(":")[0] in ("pf", "em", "rnm"):
            current = line[2:].split(":")[0]
            pmfs[current] = {}
        elif " chose " in line:
            mechanism, price = line.split(" chose ")
            chosen[mechanism] = price
        elif line.startswith("#") or line in ("price,buyers,revenue", "price,probability"):
            continue
        elif current is None:
            price, buyers, revenue = line.split(",")
            table[price] = (int(buyers), revenue)
        else:
            price, probability = line.split(",")
            pmfs[current][price] = probability
    return table, pmfs, chosen


def test_the_revenues_are_price_times_buyers():
    table, _, _ = sections(run_example(SEEDS[0]))
    values = [Decimal(bid) for bid in bids()]
    assert len(values) == 60 and Decimal("4.50") in values
    assert list(table) == PRICES
    for price in PRICES:
        buyers = sum(value >= Decimal(price) for value in values)
        assert table[price] == (buyers, str(Decimal(price) * buyers)), price


def test_the_distributions_are_those_best_price_draws_from():
    table, pmfs, _ = sections(run_example(SEEDS[0]))
    units = [int(Decimal(price) * 100) for price in PRICES]
    revenues = [unit * table[price][0] for unit, price in zip(units, PRICES)]
    params = dpsel.Params.from_epsilon("1", max(units), monotonic=True)
    assert {"pf", "em"} <= set(pmfs)
    for mechanism in ("pf", "em"):
        pmf = dpsel.pmf(params, revenues, mechanism)
        assert [pmfs[mechanism][price] for price in PRICES] == \
            [pmf.probability_text(i) for i in range(len(PRICES))], mechanism


@pytest.mark.parametrize("seed", SEEDS)
def test_the_releases_are_best_price_s(seed):
    _, pmfs, chosen = sections(run_example(seed))
    assert set(chosen) == set(pmfs)
    for mechanism in chosen:
        rng = dpsel.Rng.seeded(bytes.fromhex(seed if len(seed) % 2 == 0 else "0" + seed))
        assert chosen[mechanism] == dpsel.best_price(bids(), PRICES, "1", mechanism, rng=rng), \
            mechanism
