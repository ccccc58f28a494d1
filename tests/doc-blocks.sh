#!/bin/sh
# SPDX-License-Identifier: ISC
# Prints the code blocks of a Markdown document that the tests run as written:
#   sh tests/doc-blocks.sh LANGUAGE FILE [SECTION]
# every block fenced as ```LANGUAGE in FILE, in order; with SECTION, only those
# under the heading whose title is SECTION (up to the next heading of its
# level or above).  Exits 1, naming what it looked for, when there is none.
set -eu
usage="usage: sh tests/doc-blocks.sh LANGUAGE FILE [SECTION]"
language=${1:?$usage}
file=${2:?$usage}
section=${3:-}
blocks=$(awk -v language="$language" -v section="$section" '
    /^```/ { fenced = !fenced; wanted = fenced && $0 == "```" language; next }
    fenced { if (wanted && (section == "" || inside)) print; next }
    /^#+ / { level = index($0, " ") - 1
             if (substr($0, level + 2) == section) { inside = 1; own = level }
             else if (inside && level <= own) inside = 0 }' "$file")
if [ -z "$blocks" ]; then
    echo "doc-blocks: no $language block in $file${section:+ under \"$section\"}" >&2
    exit 1
fi
printf '%s\n' "$blocks"
