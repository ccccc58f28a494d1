# SPDX-License-Identifier: ISC
"""The types of the data arguments of the public calls, for type checkers
and readers: what each takes, numpy's types among them without importing
numpy (a string names them; numpy stays optional)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Iterable, Mapping, Optional, Union

from ._params import Number

if TYPE_CHECKING:
    from numpy.typing import NDArray

# One value per record (a list, a numpy array, a pandas Series or Index,
# any iterable): mode's values, quantile's, best_price's bids.
Records = Union["NDArray[Any]", Iterable[Any]]
# Integer scores, or decimals in units of a resolution: a sequence (the
# release is a position), a numpy array, or a mapping or pandas Series (the
# release is a label).
ScoresLike = Union["NDArray[Any]", Mapping[Hashable, Any], Iterable[Any]]
# The public candidates: distinct labels (a list, a tuple, a pandas Index).
Labels = Iterable[Hashable]
# A grid's resolution: a decimal, or None for the ends' finest digit.
Resolution = Optional[Number]

__all__ = ["Labels", "Number", "Records", "Resolution", "ScoresLike"]
