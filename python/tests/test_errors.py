# SPDX-License-Identifier: ISC
"""The exceptions: one class per dpsel code, with the library's message,
compatible with the Python exceptions their cause suggests, picklable."""

import pickle

import pytest

import dpsel
from dpsel._errors import error_for

EXPECTED = {  # code: (class, the Python exception it also is)
    dpsel.ErrorCode.NULL: (dpsel.NullError, TypeError),
    dpsel.ErrorCode.EMPTY: (dpsel.EmptyError, ValueError),
    dpsel.ErrorCode.RANGE: (dpsel.RangeError, ValueError),
    dpsel.ErrorCode.EPSILON: (dpsel.EpsilonError, ValueError),
    dpsel.ErrorCode.NOMEM: (dpsel.NoMemoryError, MemoryError),
    dpsel.ErrorCode.RANDOM: (dpsel.RandomSourceError, dpsel.Error),
    dpsel.ErrorCode.UNLIKELY: (dpsel.UnlikelyError, dpsel.Error),
    dpsel.ErrorCode.TOOLARGE: (dpsel.TooLargeError, dpsel.Error),
    dpsel.ErrorCode.INEXACT: (dpsel.InexactError, dpsel.Error),
    dpsel.ErrorCode.INTERNAL: (dpsel.InternalError, dpsel.Error),
    dpsel.ErrorCode.DECIMAL: (dpsel.DecimalError, ValueError),
    dpsel.ErrorCode.UNIT: (dpsel.UnitError, ValueError),
    dpsel.ErrorCode.STATE: (dpsel.StateError, ValueError),
    dpsel.ErrorCode.CANCELED: (dpsel.CanceledError, dpsel.Error),
}


def test_every_code_has_its_class():
    assert set(EXPECTED) == set(dpsel.ErrorCode) - {dpsel.ErrorCode.OK}
    for code, (cls, python) in EXPECTED.items():
        error = error_for(code, "somewhere")
        assert type(error) is cls and isinstance(error, python) and isinstance(error, dpsel.Error)
        assert error.code == code == cls.code
        assert error.message == dpsel.strerror(code) != "unknown error"
        assert str(error) == f"somewhere: {error.message}"
        assert cls.__module__ == "dpsel"


def test_an_unknown_code_is_a_plain_error():
    error = error_for(-1000)
    assert type(error) is dpsel.Error and error.code == -1000
    assert str(error) == "unknown error"


def test_errors_survive_pickling():
    error = error_for(dpsel.ErrorCode.RANGE, "dpsel_select")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is dpsel.RangeError and str(copy) == str(error) and copy.code == error.code


def test_a_failure_of_c_names_its_function():
    with pytest.raises(dpsel.EmptyError, match=r"^dpsel_select: "):
        dpsel.Selector(dpsel.Params.from_epsilon("1")).select([])
