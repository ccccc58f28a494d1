#!/bin/sh
# SPDX-License-Identifier: ISC
# The manual pages (man/): each passes mandoc -Tlint, every command of the
# tool has its page and every option it accepts (as its --help lists them)
# appears there, every DPSEL_API function of include/dpsel.h is named in a
# section 3 page (and every function named there exists), and the examples
# of the section 1 pages run as written.
#   sh tests/man.sh build/dpsel
set -u
LC_ALL=C
export LC_ALL
[ $# -eq 1 ] || { echo "usage: sh tests/man.sh TOOL" >&2; exit 1; }
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$tool" ] || { echo "man.sh: $1 is not an executable" >&2; exit 1; }
command -v mandoc > /dev/null || { echo "man.sh: mandoc is missing (apt-get install mandoc)" >&2; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL $*"
}
pass() {
    passed=$((passed + 1))
}

# The page as plain text.
render() {
    mandoc -T ascii "$1" | col -bx
}

# Lint, every level down to style.  Two messages are about this machine,
# not the pages: a reference to a page that is not installed (the pages of
# man/ are not, before make install; the system's pages of getrandom(2)
# and the like come with manpages-dev), and mandoc's database being older
# than the system's pages.  A reference must still name a page of man/ or
# one of the system's listed here.
system_pages=" getrandom(2) fork(2) mpfr_free_cache(3) "
for page in man/*.[137]; do
    head -n 1 "$page" | grep -q 'SPDX-License-Identifier: ISC' || fail "$page: no SPDX line first"
    problems=$(mandoc -T lint -W style "$page" 2>&1 | while IFS= read -r line; do
        case $line in
            *"outdated mandoc.db"*) ;;
            *"referenced manual not found: Xr "*)
                ref=${line##*Xr }; ref=${ref% (*}; name=${ref% *}; section=${ref#* }
                [ -f "man/$name.$section" ] || case $system_pages in
                    *" $name($section) "*) ;;
                    *) echo "$line" ;;
                esac ;;
            *) echo "$line" ;;
        esac
    done)
    if [ -n "$problems" ]; then fail "$page: mandoc -Tlint:"; echo "$problems"; else pass; fi
done

# Every command has a page naming every option its help lists.
[ -f man/dpsel.1 ] && pass || fail "no man/dpsel.1"
commands=$("$tool" help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in dpsel help"
for command in $commands; do
    page=man/dpsel-$command.1
    if [ ! -f "$page" ]; then
        fail "$command: no $page"
        continue
    fi
    render "$page" > "$work/page"
    missing=
    for option in $("$tool" "$command" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p'); do
        grep -q -e "$option\\b" "$work/page" || missing="$missing $option"
    done
    [ -z "$missing" ] && pass || fail "$page lacks$missing"
    grep -q "^EXIT STATUS" "$work/page" && grep -q "^EXAMPLES" "$work/page" && pass \
        || fail "$page: no EXIT STATUS or EXAMPLES"
done

# Every DPSEL_API function is named in a section 3 page, and every name
# there is one.
sed -n 's/.*DPSEL_API[^(]*[ *]\(dpsel_[a-z0-9_]*\)(.*/\1/p' include/dpsel.h | sort -u > "$work/api"
for page in man/*.3; do
    sed -n '/^\.Sh NAME/,/^\.Sh /s/^\.Nm \([a-z0-9_]*\).*/\1/p' "$page"
done | grep -v '^dpsel$' | sort -u > "$work/named"
[ -s "$work/api" ] || fail "no DPSEL_API function found in include/dpsel.h"
unnamed=$(comm -23 "$work/api" "$work/named" | tr '\n' ' ')
[ -z "$unnamed" ] && pass || fail "DPSEL_API functions in no page's NAME: $unnamed"
unknown=$(comm -13 "$work/api" "$work/named" | tr '\n' ' ')
[ -z "$unknown" ] && pass || fail "named in man/*.3 but not DPSEL_API functions: $unknown"

# The examples of the section 1 pages run as written (each page's in a
# folder of its own, in order, with this tool first on PATH): lines that
# start with "$ ", a trailing backslash continuing a command.
mkdir "$work/bin"
ln -s "$tool" "$work/bin/dpsel"
for page in man/*.1; do
    name=$(basename "$page" .1)
    mkdir "$work/$name"
    render "$page" | sed -n '/^EXAMPLES/,/^[A-Z]/p' | awk '
        { sub(/^ +/, "") }
        more { print; more = /\\$/; next }
        /^\$ / { sub(/^\$ /, ""); print; more = /\\$/ }' > "$work/$name/examples.sh"
    if [ ! -s "$work/$name/examples.sh" ]; then
        fail "$page: no example"
        continue
    fi
    if (cd "$work/$name" && PATH=$work/bin:$PATH sh -e examples.sh > out 2> err); then
        pass
    else
        fail "$page: an example failed:"
        sed 's/^/    /' "$work/$name/err"
    fi
done

# The program of dpsel(3)'s EXAMPLES compiles against this build's
# static library and prints one of its books.
build=$(dirname "$tool")
sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' man/dpsel.3 | sed -n '/^\.Bd -literal/,/^\.Ed/p' \
    | sed -e '/^\.Bd/d' -e '/^\.Ed/d' -e 's/\\e/\\/g' > "$work/example.c"
if ${CC:-cc} -std=c11 -Wall -Werror -Iinclude -o "$work/example" "$work/example.c" \
        "$build/libdpsel.a" -lmpfr -lgmp -lsodium 2> "$work/cc.err" \
    && "$work/example" > "$work/example.out" \
    && grep -qx -e Middlemarch -e Ulysses -e Emma "$work/example.out"; then
    pass
else
    fail "dpsel(3)'s example:"
    sed 's/^/    /' "$work/cc.err" "$work/example.out" 2> /dev/null
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
