# SPDX-License-Identifier: ISC
"""Partial selections over shards (dpsel_partial_*; spec/partial.md)."""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import weakref
from typing import Any, Optional, Sequence, SupportsIndex, Tuple

from ._native import convert
from ._enums import RNM_PARTIAL, MechanismArg, refuse_rnm
from ._errors import ErrorCode, RangeError, explained
from ._native.lib import PARTIAL_KEY_MAX, PARTIAL_KEY_MIN, PARTIAL_MEMBER_MAX, address, lib
from ._locks import ForkSafeLock
from ._owned import Owned
from ._params import Params, c_params
from ._rng import Rng, resolve
from ._scores import as_scores
from ._select import Selector
from ._units import score_in_units, scores_in_units
from ._types import ScoresLike


def _key(key: object) -> bytes:
    """A MAC key: bytes of PARTIAL_KEY_MIN to PARTIAL_KEY_MAX."""
    key = convert.byte_string(key, "key")
    if not PARTIAL_KEY_MIN <= len(key) <= PARTIAL_KEY_MAX:
        raise ValueError(f"key must be {PARTIAL_KEY_MIN} to {PARTIAL_KEY_MAX} bytes, not "
                         f"{len(key)}: 32 random bytes the deployment keeps secret "
                         "(secrets.token_bytes(32))")
    return key


class Partial(Owned):
    """A selection split over shards: each shard adds its candidates to a
    Partial, Partials merge two by two in any order, and the merged one
    finishes into the released candidate, with exactly the distribution of
    Selector.select (PF or EM, the same parameters) on all the candidates
    together.  A candidate is named by its member, bytes the caller chooses
    (a label, a shard and index: ``label.encode()``), and the release is
    that member.  The state holds at most gap cap + 1 levels and their
    members, whatever the number of candidates.

    A Partial pickles (and :meth:`to_bytes` / :meth:`from_bytes` serialise
    it, versioned and checksummed), so shards may run in other processes.
    The checksum catches corruption, not forgery: where states cross a
    trust boundary, pass ``key=`` (16 to 64 secret bytes the deployment
    holds) to both, which seals them with a MAC instead.
    Adding, merging and finishing draw random bits.  A state releases once:
    finishing it, or merging it into another, spends it, and an error
    part-way fails it (RangeError from then on).  Two releases from one
    state, or from copies of its bytes, share its members and are not
    independent: release each candidate through one path of merges to one
    finish.  Calls take turns between threads.
    """

    __slots__ = ("_handle", "_params", "_lock", "__weakref__")

    def __init__(self, params: Params):
        handle = ctypes.c_void_p()
        lib.dpsel_partial_new(ctypes.byref(handle), c_params(params))
        self._own(address(handle), params)

    @classmethod
    def from_bytes(cls, params: Params, data: bytes, key: Optional[bytes] = None) -> Partial:
        """The state to_bytes wrote, for params' base and gap cap, every
        field checked (StateError otherwise).  With key, only a state
        to_bytes sealed with that key (StateError for another key, a
        changed byte, or an unkeyed state; and without key, for a keyed
        one)."""
        data = convert.byte_string(data, "data")
        handle = ctypes.c_void_p()
        if key is None:
            lib.dpsel_partial_deserialize(ctypes.byref(handle), c_params(params), data, len(data))
        else:
            key = _key(key)
            lib.dpsel_partial_deserialize_keyed(ctypes.byref(handle), c_params(params), key,
                                                len(key), data, len(data))
        partial = cls.__new__(cls)
        partial._own(address(handle), params)
        return partial

    def _own(self, handle: int, params: Params) -> None:
        self._handle = handle
        self._params = params.copy()
        self._lock = ForkSafeLock("dpsel.Partial")
        weakref.finalize(self, lib.dpsel_partial_free, handle)

    def __len__(self) -> int:
        """The candidates the state counts."""
        return int(lib.dpsel_partial_count(self._handle))

    def add(self, score: int, member: bytes = b"", rng: Optional[Rng] = None) -> None:
        """One candidate: its score and its member (at most
        PARTIAL_MEMBER_MAX bytes).  With Params made with a resolution, the
        score is a decimal in whole units of it, as Selector.select takes
        it (UnitError when it is not)."""
        member = convert.byte_string(member, "member")
        score = score_in_units(score, self._params.resolution)
        with self._lock, resolve(rng)._use as c_rng:
            lib.dpsel_partial_add(self._handle, score, member, len(member), c_rng)

    def add_many(self, scores: ScoresLike, members: Sequence[bytes],
                 rng: Optional[Rng] = None) -> None:
        """Candidates at once, as add for each in order, in one C call
        (dpsel_partial_add_scores): scores (a sequence, a numpy array or a
        pandas Series of integers, or decimals with a resolution, as
        Selector.select takes them) and their members (bytes each, at most
        PARTIAL_MEMBER_MAX), one per score."""
        values = as_scores(scores_in_units(scores, self._params.resolution), "scores")
        members = [convert.byte_string(member, f"members[{i}]")
                   for i, member in enumerate(members)]
        if len(members) != values.n:
            raise ValueError(f"members has {len(members)} members for {values.n} scores: give "
                             "one member per score")
        for i, member in enumerate(members):
            if len(member) > PARTIAL_MEMBER_MAX:
                raise RangeError(f"members[{i}] has more than PARTIAL_MEMBER_MAX "
                                 f"({PARTIAL_MEMBER_MAX}) bytes")
        ends = (ctypes.c_size_t * max(1, len(members)))(*itertools.accumulate(map(len, members)))
        with self._lock, resolve(rng)._use as c_rng:
            lib.dpsel_partial_add_scores(self._handle, values.address, values.n,
                                         b"".join(members), ends, c_rng)

    def merge(self, other: Partial, rng: Optional[Rng] = None) -> None:
        """Moves other's candidates into this state: other is spent.
        RangeError for other parameters (or another resolution), the same
        state, or a spent one."""
        if not isinstance(other, Partial):
            raise TypeError(f"other must be a dpsel.Partial, not {type(other).__name__}")
        with contextlib.ExitStack() as locks:
            # Both states, locked in one global order (no deadlock with a
            # merge the other way); the same state once (C refuses it).
            for lock in sorted({self._lock, other._lock}, key=id):
                locks.enter_context(lock)
            if self._params.resolution != other._params.resolution:  # C sees units alone
                raise RangeError("other", fix=self._merge_fix(ErrorCode.RANGE, other) or "")
            with resolve(rng)._use as c_rng, explained(lambda code: self._merge_fix(code, other)):
                lib.dpsel_partial_merge(self._handle, other._handle, c_rng)

    def _merge_fix(self, code: int, other: Partial) -> Optional[str]:
        """What a refused merge needs."""
        if code != ErrorCode.RANGE:
            return None
        if other is self:
            return "a state cannot merge into itself"
        if self._params.resolution != other._params.resolution:
            return (f"other's scores are in units of {other._params.resolution}, this "
                    f"state's in units of {self._params.resolution} (None: integers): merge "
                    "states made with the same resolution")
        if (self._params.x, self._params.y, self._params.gap_cap) != \
                (other._params.x, other._params.y, other._params.gap_cap):
            return (f"other was made for {other._params!r}, this state for {self._params!r}: "
                    "merge states made with the same base and gap cap")
        return ("one of the states is spent (finished, merged away, or failed part-way): "
                "release each candidate through one path of merges to one finish")

    def finish(self, selector: Selector, mechanism: MechanismArg = "pf",
               rng: Optional[Rng] = None) -> bytes:
        """The selection: the released candidate's member; the state is
        spent.  The selector must have the state's base and gap cap (else
        RangeError); EmptyError with no candidate."""
        if not isinstance(selector, Selector):
            raise TypeError(f"selector must be a dpsel.Selector, not {type(selector).__name__}")
        member, size = ctypes.c_void_p(), ctypes.c_size_t()
        chosen = refuse_rnm(mechanism, RNM_PARTIAL)
        with self._lock, resolve(rng)._use as c_rng:
            lib.dpsel_partial_finish(self._handle, selector._handle, chosen, c_rng,
                                     ctypes.byref(member), ctypes.byref(size))
            # Copied now: the pointer is valid until the state is freed.
            return ctypes.string_at(address(member), size.value) if size.value else b""

    def to_bytes(self, key: Optional[bytes] = None) -> bytes:
        """The state as bytes (versioned, with a BLAKE2b checksum; with key,
        16 to 64 bytes, a BLAKE2b MAC keyed with it).  Not encrypted: the
        bytes hold the members."""
        key = None if key is None else _key(key)

        def serialize(buffer: Optional[ctypes.Array[ctypes.c_char]], size: ctypes.c_size_t) -> None:
            room = size.value if buffer is not None else 0
            if key is None:
                lib.dpsel_partial_serialize(self._handle, buffer, room, ctypes.byref(size))
            else:
                lib.dpsel_partial_serialize_keyed(self._handle, key, len(key), buffer, room,
                                                  ctypes.byref(size))

        size = ctypes.c_size_t()
        with self._lock:
            serialize(None, size)
            buffer = ctypes.create_string_buffer(size.value)
            serialize(buffer, size)
        return buffer.raw[:size.value]

    # Copies and pickles go through the serialised state.
    __copy__ = __deepcopy__ = None

    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[Any, ...]:
        return (Partial.from_bytes, (self._params, self.to_bytes()))

    def __repr__(self) -> str:
        return f"<dpsel.Partial of {len(self)} candidates>"

