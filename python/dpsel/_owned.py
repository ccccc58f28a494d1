# SPDX-License-Identifier: ISC
"""The base of the objects that own C memory."""

from __future__ import annotations

from typing import Any, Callable, NoReturn, Optional, SupportsIndex, Tuple


class Owned:
    """An object that owns C memory: a handle it frees when collected, or a
    struct whose address C keeps.  A copy would share that memory and could
    outlive it (a dangling pointer, a double use of a random source), so
    copying and pickling are refused; a class that can rebuild itself
    (Selector, Partial) defines __reduce_ex__ and sets __copy__ and
    __deepcopy__ to None, so that copy goes through it."""

    __slots__ = ()

    def _refuse_copy(self, *args: object) -> NoReturn:
        raise TypeError(f"a dpsel.{type(self).__name__} cannot be copied or pickled: "
                        "make a new one")

    # Optional: a class that rebuilds itself sets them to None (copy then
    # goes through __reduce_ex__).
    __copy__: Optional[Callable[..., object]] = _refuse_copy
    __deepcopy__: Optional[Callable[..., object]] = _refuse_copy

    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[Any, ...]:
        self._refuse_copy()
