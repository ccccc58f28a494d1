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
set -eu
cd "$(dirname "$0")/.."
export WHY3CONFIG="$PWD/proofs/why3.conf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r include spec "$tmp/"
mkdir -p "$tmp/src"
cp -r src/core "$tmp/src/"

# The offset of step i is drawn by dpsel_core_uniform with bound n - i.
sed '/dpsel_core_uniform/ s/\bn - i\b/n - i + 1/' src/core/pf.c > "$tmp/src/core/pf.c"
if cmp -s src/core/pf.c "$tmp/src/core/pf.c"; then
    echo "proofs/mutation.sh: no 'dpsel_core_uniform(... n - i ...)' in src/core/pf.c to mutate;" \
         "update the mutation to the new shuffle code" >&2
    exit 1
fi
# WP runs on the function that holds the mutated line only (to be quick): the
# last function definition (a line starting with a type) above it.
line=$(diff src/core/pf.c "$tmp/src/core/pf.c" | sed -n 's/^\([0-9]*\)c.*/\1/p' | head -1)
function=$(head -n "$line" src/core/pf.c |
           sed -n 's/^[A-Za-z][A-Za-z0-9_ ]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*[^;]$/\1/p' | tail -1)
echo "== mutation in $function: the shuffle draws its offset in [0, n - i] instead of [0, n - i):"
diff src/core/pf.c "$tmp/src/core/pf.c" | sed -n 's/^> *//p'

# Only pf.c is given to WP: the functions it calls are taken by their contracts.
cd "$tmp"
frama-c -cpp-extra-args="-Iinclude -Ispec" \
    -kernel-warn-key annot:missing-spec=abort \
    -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
    src/core/pf.c \
    -wp -wp-rte -wp-fct "$function" -wp-prover cvc4,z3 -wp-timeout "${WP_TIMEOUT:-30}" -wp-par 2 \
    > wp.log 2>&1 || { cat wp.log; echo "proofs/mutation.sh: Frama-C failed" >&2; exit 1; }
summary=$(grep 'Proved goals' wp.log | tail -1)
proved=$(echo "$summary" | awk -F'[:/]' '{ gsub(/ /, ""); print $2 }')
total=$(echo "$summary" | awk -F'/' '{ gsub(/ /, ""); print $2 }')
if [ -z "$proved" ] || [ "$proved" = "$total" ]; then
    echo "proofs/mutation.sh: FAILED: the mutated shuffle was proved (${proved:-?} / ${total:-?})" >&2
    exit 1
fi
echo "mutation caught: ${proved} / ${total} goals proved; unproved:"
grep -E '^\[wp\] \[(Failed|Unknown|Timeout)' wp.log | sed 's/^/  /'
