#!/bin/sh
# SPDX-License-Identifier: ISC
# The Criterion suite and the CLI table, built with AddressSanitizer (leak
# checker included) and UndefinedBehaviorSanitizer (see `make sanitize`).
#   sh tests/sanitize.sh BUILD_DIR     (BUILD_DIR/tests/dpsel-tests, BUILD_DIR/dpsel)
# Fails on a failed test and on any sanitizer report.  Reports go to files in
# BUILD_DIR/reports/: a Criterion worker that leaks has already reported its
# test as passed when LeakSanitizer runs at its exit, so the exit status alone
# would miss the leak.
set -u
[ $# -eq 1 ] || { echo "usage: sh tests/sanitize.sh BUILD_DIR" >&2; exit 1; }
build=$1
reports=$build/reports
rm -rf "$reports"
mkdir -p "$reports"
# allocator_may_return_null: a huge allocation the library must refuse
# (DPSEL_ENOMEM) returns NULL instead of stopping ASan.
# ASan then still logs a warning line, the only line that is not a report.
# exitcode=23: a process that ends with a sanitizer report exits with 23, so
# that the suite's status tells failed tests (1) from reports, which are
# judged below; Criterion's runner process itself sometimes ends with a leak
# of its own.
ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:exitcode=23:log_path=$reports/log"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/log"
export ASAN_OPTIONS UBSAN_OPTIONS
status=0
# DPSEL_TEST_SANITIZED: the suite skips three exhaustive enumerations whose
# code the other cases cover (test_race.c); make test runs them.
DPSEL_TEST_SANITIZED=1 DPSEL_TOOL=$build/dpsel "$build/tests/dpsel-tests" --jobs 2
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 23 ] || status=1
sh tests/cli.sh "$build/dpsel" || status=1
# ours: the report lines that concern dpsel.  Left out: ASan's warning for a
# refused allocation, and leak blocks whose every frame after the allocator
# lies in libcriterion (the framework's own allocations, which a worker may
# still hold when it exits; a leak in dpsel or a test has a frame of its own).
ours() {
    cat "$reports"/* 2>/dev/null | awk '
        function flush() {
            if (block != "" && mine) printf "%s", block
            block = ""; mine = 0; leak = 0
        }
        /^==[0-9]+==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]+ bytes$/ { next }
        /^(Direct|Indirect) leak of / { flush(); leak = 1; block = $0 "\n"; next }
        leak && /^ *#[0-9]+ / {
            block = block $0 "\n"
            if ($1 != "#0" && $0 !~ /libcriterion\.so/) mine = 1
            next
        }
        leak { flush() }
        /^=+$/ || /^$/ || /ERROR: LeakSanitizer: detected memory leaks/ { next }
        /^SUMMARY: AddressSanitizer: [0-9]+ byte\(s\) leaked/ { next }
        { print }
        END { flush() }'
}
if [ -n "$(ours)" ]; then
    echo "sanitize: sanitizer reports in $reports:" >&2
    ours | head -n 60 >&2
    status=1
fi
[ $status -eq 0 ] && echo "sanitize: no test failed, no sanitizer report"
exit $status
