#!/bin/sh
# The shared library exports dpsel_ functions only, and has its SONAME.
set -eu
lib=$1
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ && $3 !~ /^dpsel_/ { print $3 }')
soname=$(objdump -p "$lib" | awk '/SONAME/ { print $2 }')
if [ -n "$bad" ] || [ "$soname" != "libdpsel.so.0" ]; then
    echo "exports: unexpected symbols: $bad; SONAME: $soname"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "exports: $(nm -D --defined-only "$lib" | grep -c ' T dpsel_') dpsel_ functions, SONAME $soname"
echo "1 passed, 0 failed"
