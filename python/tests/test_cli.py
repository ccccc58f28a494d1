# SPDX-License-Identifier: ISC
"""The Python package and the tool agree: on the DPBench histograms, `dpsel
select --seed HEX` releases what Selector (or PfStream, for the tool's
streamed PF) releases with Rng.seeded(bytes.fromhex(HEX))."""

import pandas
import pytest

import dpsel

from conftest import dpbench_files, read_histogram, run_tool

SEED = "5eed"
COUNT = 6


def histogram(path):
    bins, counts = read_histogram(path)
    return pandas.Series(counts, index=bins)


@pytest.mark.parametrize("path", dpbench_files(), ids=lambda p: p.stem)
@pytest.mark.parametrize("task, epsilon, options, method", [
    ("mode", "0.001", [], "select"),
    ("mode", "0.0001", ["--mechanism", "em"], "select"),
    ("median", "0.01", [], "select"),
    ("median", "0.01", ["--hardened"], "select_hardened"),
    ("mode", "0.001", ["--top", "3"], "select_top"),
])
def test_the_tool_s_in_memory_choices(path, task, epsilon, options, method):
    tool = run_tool("select", "--task", task, "--epsilon", epsilon, "--seed", SEED,
                    "--count", COUNT, *options, path).split()
    scores = dpsel.task_scores(task, histogram(path))
    selector = dpsel.Selector(dpsel.Params.from_epsilon(epsilon, *dpsel.task_params(task)))
    mechanism = "em" if "em" in options else "pf"
    rng = dpsel.Rng.seeded(bytes.fromhex(SEED))
    select = getattr(selector, method)
    extra = (3,) if method == "select_top" else ()
    choices = [select(scores, *extra, mechanism=mechanism, rng=rng) for _ in range(COUNT)]
    flat = [label for choice in choices for label in (choice if extra else [choice])]
    assert flat == tool


@pytest.mark.parametrize("path", dpbench_files(), ids=lambda p: p.stem)
def test_the_tool_s_streamed_choices(path):
    # A regular file without --task is streamed: one PfStream per selection,
    # fed the same blocks of PF_STREAM_BLOCK scores in turn, one source.
    tool = run_tool("select", "--epsilon", "0.001", "--monotonic", "--seed", SEED, "--count", 3,
                    path).split()
    counts = histogram(path)
    selector = dpsel.Selector(dpsel.Params.from_epsilon("0.001", monotonic=True))
    rng = dpsel.Rng.seeded(bytes.fromhex(SEED))
    streams = [selector.stream(int(counts.max()), rng) for _ in range(3)]
    block = dpsel.PF_STREAM_BLOCK
    for start in range(0, len(counts), block):
        for stream in streams:
            stream.add_many(counts.to_numpy()[start:start + block])
    assert [counts.index[stream.finish()] for stream in streams] == tool
