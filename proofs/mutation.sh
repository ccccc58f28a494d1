#!/bin/sh
# SPDX-License-Identifier: ISC
# The proofs must catch a broken bound: copies the core to a temporary
# directory, makes the Fisher-Yates step of permute-and-flip draw its offset
# from one value too many (uniform(n - i + 1), so the swap can reach
# scratch[n]), and checks that WP, with the flags of proofs/run.sh, then
# fails on the function that holds the draw.  Run by proofs/run.sh (make
# proofs) after every goal of the intact core is proved, so the failure is the
# mutation's.  The provers are run.sh's (proofs/why3.conf, with their step
# limits); the timeout, 30 s, cuts the false goals short: no prover can prove
# them, so the clock cannot change the verdict here.
#   It also checks that WP's cache (proofs/run.sh's CACHE=replay) cannot hide
# the change.  The intact function is proved by each prover alone, with the
# cache of the run before (build/proofs/cache) filling in what it holds, so
# that the cache then holds each prover's verdict on every goal (when the two
# race, the loser is stopped and leaves no verdict, and a replay where it
# happens to answer first counts a miss).  Replaying that cache with both
# provers must then prove the function with every goal answered from it (the
# cache is in use); the mutant is then proved replaying the same cache, and
# must fail on a goal that the cache holds as proved under the same name: its
# text changed, so its key did, and it was proved anew.  (The mutated draw is
# the function's first statement, so every goal of the mutant may differ from
# the intact ones: the mutant's own cache hits are not a test of the cache.)
set -eu
cd "$(dirname "$0")/.."
export WHY3CONFIG="$PWD/proofs/why3.conf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r include spec "$tmp/"
mkdir -p "$tmp/src"
cp -r src/core "$tmp/src/"
mkdir -p "$tmp/cache"
if [ -d build/proofs/cache ]; then cp -r build/proofs/cache/. "$tmp/cache/"; fi

# The offset of step i is drawn by dpsel_core_uniform with bound n - i.
sed '/dpsel_core_uniform/ s/\bn - i\b/n - i + 1/' src/core/pf.c > "$tmp/pf-mutant.c"
if cmp -s src/core/pf.c "$tmp/pf-mutant.c"; then
    echo "proofs/mutation.sh: no 'dpsel_core_uniform(... n - i ...)' in src/core/pf.c to mutate;" \
         "update the mutation to the new shuffle code" >&2
    exit 1
fi
# WP runs on the function that holds the mutated line only (to be quick): the
# last function definition (a line starting with a type) above it.
line=$(diff src/core/pf.c "$tmp/pf-mutant.c" | sed -n 's/^\([0-9]*\)c.*/\1/p' | head -1)
function=$(head -n "$line" src/core/pf.c |
           sed -n 's/^[A-Za-z][A-Za-z0-9_ ]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*[^;]$/\1/p' | tail -1)
echo "== mutation in $function: the shuffle draws its offset in [0, n - i] instead of [0, n - i):"
diff src/core/pf.c "$tmp/pf-mutant.c" | sed -n 's/^> *//p'

# Only pf.c is given to WP: the functions it calls are taken by their contracts.
# wp FILE LOG CACHE-MODE PROVERS: WP on $function of FILE; sets proved and total
wp() {
    frama-c -cpp-extra-args="-Iinclude -Ispec" \
        -kernel-warn-key annot:missing-spec=abort \
        -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
        "$1" \
        -wp -wp-rte -wp-fct "$function" -wp-prover "$4" -wp-timeout "${WP_TIMEOUT:-30}" \
        -wp-par 2 -wp-cache "$3" -wp-cache-dir "$tmp/cache" \
        > "$2" 2>&1 || { cat "$2"; echo "proofs/mutation.sh: Frama-C failed" >&2; exit 1; }
    summary=$(grep 'Proved goals' "$2" | tail -1)
    proved=$(echo "$summary" | awk -F'[:/]' '{ gsub(/ /, ""); print $2 }')
    total=$(echo "$summary" | awk -F'/' '{ gsub(/ /, ""); print $2 }')
}
cd "$tmp"
wp src/core/pf.c intact-z3.log update z3
wp src/core/pf.c intact-cvc4.log update cvc4
# cache_count LOG WORD: the count WP's cache summary gives for WORD (found,
# missed), 0 when absent
cache_count() {
    sed -n "s/^\[wp\] \[Cache\].*$2:\([0-9]*\).*/\1/p" "$1" | tail -1 | grep . || echo 0
}
wp src/core/pf.c intact.log replay cvc4,z3
if [ -z "$proved" ] || [ "$proved" != "$total" ]; then
    cat intact.log
    echo "proofs/mutation.sh: FAILED: the intact $function is not proved" >&2
    exit 1
fi
if [ "$(cache_count intact.log missed)" -ne 0 ] || [ "$(cache_count intact.log found)" -eq 0 ]; then
    grep '^\[wp\] \[Cache\]' intact.log || true
    echo "proofs/mutation.sh: FAILED: replaying the cache on the intact $function did not" \
         "answer every goal from it: the mutation would not test the cache" >&2
    exit 1
fi
mv pf-mutant.c src/core/pf.c
wp src/core/pf.c wp.log replay cvc4,z3
if [ -z "$proved" ] || [ "$proved" = "$total" ]; then
    echo "proofs/mutation.sh: FAILED: the mutated shuffle was proved (${proved:-?} / ${total:-?})" >&2
    exit 1
fi
echo "mutation caught: ${proved} / ${total} goals proved ($(grep '^\[wp\] \[Cache\]' wp.log |
     sed 's/^\[wp\] \[Cache\] //') in the cache); unproved:"
grep -E '^\[wp\] \[(Failed|Unknown|Timeout)' wp.log | sed 's/^/  /'
# Each unproved goal is one the cache holds as proved by a prover (not Qed,
# whose verdicts are not cached): the cache was asked and did not answer.
sed -n 's/^\[wp\] \[\(Failed\|Unknown\|Timeout\)[^]]*\] Goal \([A-Za-z0-9_]*\) .*/\2/p' wp.log |
while read -r goal; do
    if ! grep -E "^\[wp\] \[(CVC4|Z3)[^]]*\] Goal $goal : Valid" intact.log > /dev/null; then
        echo "proofs/mutation.sh: FAILED: $goal was not proved by a prover (so not cached) in" \
             "the intact $function: the mutation does not test the cache" >&2
        exit 1
    fi
done
echo "the cache answered all $(cache_count intact.log found) prover goals of the intact $function;" \
     "the mutant's changed goals were proved anew"
