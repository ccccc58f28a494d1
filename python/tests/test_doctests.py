# SPDX-License-Identifier: ISC
"""The examples in the docstrings of dpsel (its one-call functions among
them) and dpsel.dask, run as doctests: each output shown is the one the
package gives (a seeded source, or outputs that are certain)."""

import doctest

import pytest

import dpsel
import dpsel.dask

# The one-call functions whose docstrings must hold an example.
ONE_CALL = [dpsel.mode, dpsel.quantile, dpsel.quantiles, dpsel.median, dpsel.select,
            dpsel.top_k, dpsel.best_price, dpsel.dask.select, dpsel.dask.mode,
            dpsel.dask.quantile]


@pytest.mark.parametrize("module", [dpsel, dpsel.dask], ids=lambda module: module.__name__)
def test_the_examples_give_what_they_show(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE,
                                        report=True)
    assert attempted > 0
    assert failed == 0


@pytest.mark.parametrize("function", ONE_CALL,
                         ids=lambda function: f"{function.__module__}.{function.__name__}")
def test_each_one_call_function_has_the_numpydoc_sections(function):
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert f"\n    {section}\n    {'-' * len(section)}\n" in function.__doc__, section
    assert ">>> " in function.__doc__
