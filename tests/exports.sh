#!/bin/sh
# The shared library exports dpsel_ functions only, every function the header
# marks DPSEL_API among them, and has its SONAME.
set -eu
lib=$1
header=$(dirname "$0")/../include/dpsel.h
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }')
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ && $3 !~ /^dpsel_/ { print $3 }')
declared=$(grep -o '^DPSEL_API [^(]*(' "$header" | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/')
missing=
for name in $declared; do
    printf '%s\n' "$exported" | grep -qx "$name" || missing="$missing $name"
done
soname=$(objdump -p "$lib" | awk '/SONAME/ { print $2 }')
if [ -n "$bad" ] || [ -n "$missing" ] || [ "$soname" != "libdpsel.so.0" ]; then
    echo "exports: unexpected symbols: $bad; not exported:$missing; SONAME: $soname"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "exports: $(printf '%s\n' "$exported" | grep -c '^dpsel_') dpsel_ functions ($(printf '%s\n' "$declared" | wc -l) declared DPSEL_API), SONAME $soname"
echo "1 passed, 0 failed"
