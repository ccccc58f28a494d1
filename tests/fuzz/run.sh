#!/bin/sh
# SPDX-License-Identifier: ISC
# Runs each libFuzzer harness for a bounded time, one after another.
#   sh tests/fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]
# BUILD_DIR holds the harness binaries (fuzz-input, fuzz-params, fuzz-select,
# fuzz-stream, fuzz-rng, fuzz-partial, fuzz-rnm).
# The shipped seeds in tests/fuzz/corpus/<harness>/ are read, never written:
# new inputs go to BUILD_DIR/corpus/<harness>/, a crash to
# BUILD_DIR/crash-<harness>-*.  Prints libFuzzer's final statistics (runs, and
# cov:/ft: of the last status line) for each harness; exits non-zero if any
# harness found a problem.
set -u
[ $# -ge 2 ] || { echo "usage: sh tests/fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]" >&2; exit 1; }
build=$1
seconds=$2
shift 2
[ $# -gt 0 ] || set -- input params select stream rng partial rnm
seeds=$(dirname "$0")/corpus
# ASan's leak checker runs after every input; a huge allocation the library
# is meant to refuse must come back as NULL, not stop the run.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS
status=0
for harness in "$@"; do
    case $harness in
        input|stream) max_len=8192 ;;   # lines over the 4096-byte limit
        *) max_len=512 ;;
    esac
    work=$build/corpus/$harness
    log=$build/fuzz-$harness.log
    mkdir -p "$work"
    "$build/fuzz-$harness" -max_total_time="$seconds" -max_len="$max_len" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/crash-$harness-" \
        "$work" "$seeds/$harness" > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corpus=$(find "$work" -type f | wc -l)
    echo "fuzz $harness: ${seconds}s, ${runs:-?} runs, cov ${cov:-?}, ft ${ft:-?}, corpus $corpus (log $log)"
    if [ $rc -ne 0 ]; then
        echo "fuzz $harness: FAILED (exit $rc): see $log and $build/crash-$harness-*" >&2
        grep -E 'ERROR|property failed|runtime error|SUMMARY' "$log" | head -n 5 >&2
        status=1
    fi
done
exit $status
