# SPDX-License-Identifier: ISC
# dpsel -- exact differentially private selection.
#   make            the library (static and shared) and the dpsel tool
#   make demo       install missing packages, build, run the tool on examples/
#                   and the README's Python quick start
#   make check      install missing packages, build, run every test and proof
#   make quick      build and run the unit tests, without the statistical
#                   ones (under 3 minutes: the edit-test loop)
#   make python-test  the Python package's tests (python/tests; part of check)
#   make python-typecheck  mypy --strict on the Python package (part of check)
#   make proofs     Frama-C WP on the verified core, and the Coq proofs of
#                   the distributions (proofs/coq/)
#   make sanitize   the tests under clang's ASan + UBSan (build/sanitize/)
#   make fuzz       each libFuzzer harness for FUZZ_SECONDS (default 60)
#   make plots      the paper's DPBench experiments exactly: tables and a PNG in
#                   examples/paper/ (installs gnuplot-nox if missing; BINS=1024),
#                   private quantiles' errors in examples/quantiles/, the
#                   paper's Figure 4 (RNM, EM, PF) in examples/figure4/, and
#                   JointExp against separate releases in examples/joint/
#   make install PREFIX=/usr/local   (with the man pages and the bash completion)
#   make man-lint   the man pages (mandoc -Tlint, a page per command and function)
#   make clean
# A build prints one line per file (CC src/core/coin.c); V=1 prints the commands.

PREFIX ?= /usr/local
# where the libraries and dpsel.pc go (Debian: /usr/lib/<multiarch>)
LIBDIR ?= $(PREFIX)/lib
# The folders the dynamic loader searches untold.  From any other LIBDIR
# (/usr/local/lib before ldconfig runs, a private prefix), a program needs an
# rpath to find libdpsel.so.0: dpsel.pc's Libs give it (-Wl,-rpath,${libdir}).
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
SYSTEM_LIBDIRS := /lib /usr/lib $(addprefix /lib/,$(MULTIARCH)) $(addprefix /usr/lib/,$(MULTIARCH))
PC_RPATH = $(if $(filter $(SYSTEM_LIBDIRS),$(patsubst %/,%,$(LIBDIR))),,-Wl$(comma)-rpath$(comma)$${libdir} )
comma := ,
MANDIR ?= $(PREFIX)/share/man

# $(call quiet,CC,file) before a command: prints "CC file" instead of the
# command (V=1: the command).  Errors and warnings show either way.
ifeq ($(V),1)
Q :=
quiet =
else
Q := @
quiet = @printf '  %-3s %s\n' '$(1)' '$(2)';
MAKEFLAGS += --no-print-directory
endif
CC ?= cc
# The version is written once, in include/dpsel.h (DPSEL_VERSION); the
# shared library's SOVERSION is its major part.
VERSION := $(shell sed -n '/define DPSEL_VERSION /s/.*"\(.*\)".*/\1/p' include/dpsel.h)
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
ifeq ($(VERSION),)
$(error no DPSEL_VERSION "..." in include/dpsel.h)
endif

WARNINGS := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
            -Wmissing-prototypes -Wcast-qual -Wvla -Wundef
HARDENING := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fstack-clash-protection \
             -fcf-protection
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARNINGS) $(HARDENING) $(CPPFLAGS) $(CFLAGS) -Iinclude -Ispec
LDHARDENING := -Wl,-z,relro,-z,now
# Link-time optimisation lets the samplers inline the random source's bit
# readers (src/base/rng.c) across files; fat objects also hold plain code, which the
# tests link without LTO (from the internal archive, below).  The clang builds
# (sanitize, fuzz) set LTO to nothing.
LTO ?= -flto=auto -ffat-lto-objects
LIBS := -lmpfr -lgmp -lsodium

CORE_SRC := $(wildcard src/core/*.c)
LIB_SRC := $(CORE_SRC) $(wildcard src/exact/*.c) $(wildcard src/base/*.c) $(wildcard src/api/*.c)
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/*.c)

BUILD := build
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
STATIC := $(BUILD)/libdpsel.a
SHARED := $(BUILD)/libdpsel.so.$(VERSION)
TOOL := $(BUILD)/dpsel
TESTS := $(BUILD)/tests/dpsel-tests

.PHONY: bench all demo demo-deps deps check quick test cli-test man-lint completion-test large-file valgrind sanitize fuzz fuzz-build readme-example exports \
        python-test pip-test python-typecheck bench-python bench-dask \
        proofs install clean deps plots
all: $(STATIC) $(SHARED) $(TOOL) $(BUILD)/bench_select

$(BUILD)/pic/%.o: %.c include/dpsel.h $(wildcard src/*/*.h) $(wildcard spec/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) $(LTO) -fPIC -fvisibility=hidden -DDPSEL_BUILDING -c $< -o $@

$(BUILD)/src/cli/%.o: src/cli/%.c include/dpsel.h $(wildcard src/cli/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) -fPIE -c $< -o $@

# libdpsel.a defines the API alone, as the shared library exports it: its one
# member is the partial link (-r) of the library's objects, where
# --localize-hidden makes every hidden (internal) symbol local.  With LTO the
# link optimises them as for the shared library (-flinker-output=dyn), so that
# internal functions are inlined across files as there: the rng's bit readers
# into the samplers (nolto-rel keeps every function global, and the samplers
# call dpsel_internal_rng_bits and _zeros).  Without LTO (the clang builds) ld
# joins the objects.
PRELINK = $(if $(LTO),$(CC) $(CFLAGS) $(LTO) -nostdlib -flinker-output=dyn -r,$(LD) -r)
PRELINKED := $(BUILD)/libdpsel.o
$(PRELINKED): $(LIB_OBJ)
	$(call quiet,LD,$@)$(PRELINK) -o $@ $^
	$(Q)objcopy --localize-hidden $@

$(STATIC): $(PRELINKED)
	$(Q)rm -f $@
	$(call quiet,AR,$@)ar rcs $@ $<

# The tests and the fuzz harnesses call internal functions: they link the
# library's objects themselves, from an archive that is never installed.
INTERNAL := $(BUILD)/libdpsel-internal.a
$(INTERNAL): $(LIB_OBJ)
	$(Q)rm -f $@
	$(call quiet,AR,$@)ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) $(LTO) -shared -Wl,-soname,libdpsel.so.$(SOVERSION) $(LDHARDENING) $(LDFLAGS) -o $@ $^ $(LIBS)
	$(Q)ln -sf libdpsel.so.$(VERSION) $(BUILD)/libdpsel.so.$(SOVERSION)
	$(Q)ln -sf libdpsel.so.$(VERSION) $(BUILD)/libdpsel.so

$(TOOL): $(CLI_OBJ) $(STATIC)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) $(LTO) -fPIE -pie $(LDHARDENING) $(LDFLAGS) -o $@ $(CLI_OBJ) $(STATIC) $(LIBS) -lm

# Tests link the library's objects (the internal archive: they may call its
# internal functions) and the tool's modules but its main; their malloc,
# calloc and realloc go through tests/support.c's counters (--wrap).  Each
# test file is an object of its own: touching one recompiles that one.
CLI_MODULES := $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ))
HEAP_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
$(BUILD)/tests/%.o: tests/%.c $(wildcard tests/*.h) include/dpsel.h $(wildcard src/*/*.h) \
                    $(wildcard spec/*.h)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) -Isrc -c $< -o $@
$(TESTS): $(TEST_OBJ) $(INTERNAL) $(CLI_MODULES)
	$(call quiet,LD,$@)$(CC) $(ALL_CFLAGS) $(HEAP_WRAP) -o $@ $(TEST_OBJ) $(CLI_MODULES) $(INTERNAL) \
	    -lcriterion $(LIBS) -lm -lpthread

# The Debian packages: only what the demo needs, or everything make check runs.
demo-deps:
	@sh .ci/install-deps demo

deps:
	@sh .ci/install-deps check

test: $(TESTS) $(TOOL)
	DPSEL_TOOL=$(TOOL) $(TESTS) --jobs 2

# make quick, for the edit-test loop: the build and the suite without its
# statistical fits, enumerations and scale checks (the tests of 3 s or more;
# make test and make check run them).
SLOW_TESTS := race/* hardened_exact/* hardened_levels/* pf_runs/* em_levels/* privacy/* \
              exact_layer/* statistical_layer/* quadrature/* enclosure/* joint_pmf/* \
              noisy_max/* timing/* fork_stress/* visits/* pmf/equals_an_independent_* \
              joint/releases_fit_* stream/stream_fits_* account/bounded_range_* \
              rnm_pmf/bracketed_by_* rnm/*_by_enumeration progress/an_audit_* \
              progress/the_top_exact_bound_* runs/large_pf_totals_* audit/hepth_neighbours_*
empty :=
space := $(empty) $(empty)
quick: all $(TESTS)
	DPSEL_TOOL=$(TOOL) $(TESTS) --jobs 2 --filter '!($(subst $(space),|,$(strip $(SLOW_TESTS))))'

cli-test: $(TOOL)
	sh tests/cli.sh $(TOOL)
	sh tests/data-in-messages.sh $(TOOL)

# The manual pages (man/, mandoc -Tlint; a page per command and per API
# function, their examples run) and the bash completion (completion/).
man-lint: $(STATIC) $(TOOL)
	sh tests/man.sh $(TOOL)

completion-test: $(TOOL)
	sh tests/completion.sh $(TOOL)

valgrind: $(TOOL)
	sh tests/valgrind.sh $(TOOL)

# The streamed select on 10^7 lines: it works and its memory does not grow.
PEAK_RSS := $(BUILD)/tests/peak_rss
$(PEAK_RSS): tests/tools/peak_rss.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) -o $@ $<

large-file: $(TOOL) $(PEAK_RSS)
	sh tests/large-file.sh $(TOOL) $(PEAK_RSS)

# The library, the Criterion suite and the tool built with clang's
# AddressSanitizer (leak checker included) and UndefinedBehaviorSanitizer in
# build/sanitize/, then the suite and the CLI table run there; any sanitizer
# report is a failure (see tests/sanitize.sh).
SANITIZE_BUILD := $(BUILD)/sanitize
SANITIZE_CC := clang -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize:
	$(call quiet,MAKE,$(SANITIZE_BUILD))$(MAKE) -j2 BUILD=$(SANITIZE_BUILD) CC="$(SANITIZE_CC)" CFLAGS="-O1 -g" LTO= \
	    $(SANITIZE_BUILD)/dpsel $(SANITIZE_BUILD)/tests/dpsel-tests
	sh tests/sanitize.sh $(SANITIZE_BUILD)

# libFuzzer harnesses (tests/fuzz/), built in build/fuzz/ with ASan and UBSan
# and run one after another for FUZZ_SECONDS each (see tests/fuzz/run.sh).
FUZZ_SECONDS ?= 60
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_CC := clang -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_HARNESSES := input params select stream rng partial rnm
fuzz-build:
	$(call quiet,MAKE,$(FUZZ_BUILD))$(MAKE) -j2 BUILD=$(FUZZ_BUILD) CC="$(FUZZ_CC)" CFLAGS="-O1 -g" LTO= \
	    $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/fuzz-%)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# A harness links the library's objects (the internal archive) and the tool's
# modules (only in the sub-make above, whose CC is clang with the fuzzer
# instrumentation).
$(BUILD)/fuzz-%: tests/fuzz/%.c tests/fuzz/fuzz.h $(INTERNAL) $(CLI_MODULES)
	$(call quiet,CC,$< ($(notdir $@)))$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Isrc -o $@ $< \
	    $(CLI_MODULES) $(INTERNAL) $(LIBS) -lm

# Frama-C WP on the verified core, its table compared with proofs/results.md,
# then the check that a broken bound fails (proofs/run.sh, proofs/mutation.sh).
# UPDATE=1 rewrites proofs/results.md and the cache of prover results
# (proofs/wp-cache.txt); FILE=src/core/race.c proves one module; CACHE=replay
# takes a goal's verdict from the cache where the goal is there unchanged
# (make check), and proves the others.
proofs:
	FILE="$(FILE)" UPDATE="$(UPDATE)" CACHE="$(CACHE)" sh proofs/run.sh
	$(if $(FILE),,$(MAKE) coq-proofs)

# The samplers' distributions proved in Coq (proofs/coq/README.md):
# coq-proofs compiles the theorems into $(BUILD)/coq (part of make proofs,
# unless FILE names one C module); coq-test runs the Coq reference functions,
# extracted to OCaml, against the C functions on every string of 8 bits and
# on 2000 random ones (proofs/coq/join/).
COQ_OUT := $(BUILD)/coq
COQ_MAKE = $(MAKE) -f proofs/coq/Makefile OUT=$(COQ_OUT)
.PHONY: coq-proofs coq-test
coq-proofs:
	$(COQ_MAKE) proofs

coq-test: $(BUILD)/coq-join-driver
	$(COQ_MAKE) cases
	$(COQ_OUT)/coq-join-cases 8 2000 | $(BUILD)/coq-join-driver

$(BUILD)/coq-join-driver: proofs/coq/join/driver.c $(INTERNAL)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(INTERNAL) $(LIBS) -lm

exports: $(SHARED) $(STATIC) $(INTERNAL)
	sh tests/exports.sh $(SHARED) $(STATIC) $(INTERNAL) $(LIB_OBJ)

# The README's C example must compile, link and run as written, and its
# shell sessions (the command line's and the auditors' quick starts) print
# what it shows.
readme-example: all
	sh tests/readme-example.sh README.md
	sh tests/readme-shell.sh $(TOOL)

# The Python package (python/dpsel: ctypes over libdpsel.so) and its tests,
# with Debian's python3 and python3-pytest (not a python3 earlier on PATH).
# pip-test installs it with pip into venvs made from scratch (Debian's
# python3, and any other CPython on PATH) and runs the documents' Python
# examples there (tests/pip-test.sh; python/setup.py builds the library
# in python/build/, apart from BUILD).
PYTHON ?= /usr/bin/python3
python-test: $(SHARED) $(TOOL)
	cd python && PYTHONDONTWRITEBYTECODE=1 DPSEL_LIBRARY=../$(SHARED) DPSEL_TOOL=../$(TOOL) \
	    $(PYTHON) -m pytest -q -p no:cacheprovider tests

pip-test:
	sh tests/pip-test.sh

# python-typecheck: Debian's mypy on the package, strict (python/pyproject.toml's
# [tool.mypy]; pandas and dask, which have no stubs there, taken as untyped).
MYPY ?= /usr/bin/mypy
python-typecheck:
	cd python && $(MYPY) dpsel

# The PostgreSQL extension (postgres/: PGXS, Debian's postgresql-server-dev-15),
# built out of tree in build/postgres/ with the static library linked in;
# install-postgres installs it into the server (root).  postgres-test
# starts a server of its own (postgres/test/run.sh: initdb in a temporary
# folder, an unprivileged user, a Unix socket) and runs there the pg_regress
# suites (postgres/Makefile's installcheck), the checks and the README's SQL;
# bench-postgres times 10^7 rows, and postgres-test-large runs groups too
# large for one bytea in parallel plans (postgres/test/large.sh: minutes and
# gigabytes; neither is part of check).
PG_CONFIG ?= /usr/lib/postgresql/15/bin/pg_config
PG_BUILD := $(BUILD)/postgres
PG_MAKE = $(MAKE) -C $(PG_BUILD) -f $(CURDIR)/postgres/Makefile PG_CONFIG=$(PG_CONFIG) \
    DPSEL_STATIC=$(abspath $(STATIC)) with_llvm=no $(if $(Q),-s)
.PHONY: postgres install-postgres postgres-test postgres-test-large bench-postgres
postgres: $(STATIC)
	@mkdir -p $(PG_BUILD)
	$(call quiet,PGX,$(PG_BUILD)/dpsel.so)$(PG_MAKE)

install-postgres: postgres
	$(call quiet,PGX,install)$(PG_MAKE) install

postgres-test: install-postgres $(TOOL)
	PG_CONFIG=$(PG_CONFIG) PG_INSTALLCHECK='$(PG_MAKE) installcheck' \
	    sh postgres/test/run.sh $(TOOL) README.md docs/postgresql.md

postgres-test-large: install-postgres
	PG_CONFIG=$(PG_CONFIG) sh postgres/test/large.sh

bench-postgres: install-postgres
	PG_CONFIG=$(PG_CONFIG) sh postgres/test/bench.sh

# Debian packages (debian/, tests/deb.sh): deb builds the five packages from a
# copy of the tree into build/debs/ (dpkg-buildpackage -us -uc -b) and checks
# them: lintian (no error), blhc (nothing), a missing symbol failing
# dpkg-gensymbols; deb-test installs them on this machine (root: CI's
# throwaway machine), runs the autopkgtests of debian/tests/ and removes them
# (after postgres-test in check: both install the extension into the server).
DEB_OUT := $(BUILD)/debs
.PHONY: deb deb-test
deb: deps
	sh tests/deb.sh build $(DEB_OUT)

deb-test: deb
	sh tests/deb.sh test $(DEB_OUT)

demo: demo-deps
	$(MAKE) all
	sh examples/demo.sh $(TOOL) $(SHARED)

# Two jobs at a time where they do not time anything: builds, and the
# tests (Criterion's own two workers leave a core idle at the end).
check: deps
	$(MAKE) -j2 all
	$(MAKE) -j2 --output-sync=target test cli-test man-lint completion-test large-file valgrind \
	    readme-example exports coq-test \
	    python-test pip-test python-typecheck postgres-test
	$(MAKE) deb-test
	$(MAKE) sanitize
	$(MAKE) proofs CACHE=replay
	$(MAKE) fuzz FUZZ_SECONDS=10

# The man pages of section 3 are one per family of functions: each function
# named in a page's NAME section gets a link to it (man dpsel_select_top).
install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/dpsel.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/
	ln -sf libdpsel.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libdpsel.so.$(SOVERSION)
	ln -sf libdpsel.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libdpsel.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@RPATH@|$(PC_RPATH)|' \
	    -e 's|@VERSION@|$(VERSION)|' dpsel.pc.in \
	    > $(DESTDIR)$(LIBDIR)/pkgconfig/dpsel.pc
	install -m 755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/*.3 $(DESTDIR)$(MANDIR)/man3/
	for page in man/*.3; do \
	    for name in $$(sed -n '/^\.Sh NAME/,/^\.Sh /s/^\.Nm \([a-z0-9_]*\).*/\1/p' $$page); do \
	        [ man/$$name.3 = $$page ] || ln -sf $${page#man/} $(DESTDIR)$(MANDIR)/man3/$$name.3; \
	    done; \
	done
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 completion/dpsel.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dpsel
	@# the dynamic linker's cache, so that the library is found at once (root
	@# only: a staged install, DESTDIR, or a user's prefix has no cache to update)
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi

clean:
	rm -rf $(BUILD)

# The permute-and-flip paper's DPBench experiments (examples/paper.sh), the
# quantiles' errors over epsilon (examples/quantiles.sh) and the paper's
# Figure 4, report noisy max against EM and PF (examples/figure4.py), and
# many quantiles in one JointExp release against separate ones at the same
# total epsilon (examples/joint.sh); gnuplot draws examples/paper/paper.png,
# examples/quantiles/quantiles.png, examples/figure4/figure4.png and
# examples/joint/joint.png.  Not part of `make check`.
BINS ?= 1024
plots: all
	@command -v gnuplot > /dev/null 2>&1 || { [ "$$(id -u)" = 0 ] \
	    && apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	       apt-get install -y -q --no-install-recommends gnuplot-nox; } \
	    || echo "plots: install gnuplot-nox for the PNG"
	BINS=$(BINS) sh examples/paper.sh $(TOOL)
	sh examples/quantiles.sh $(TOOL)
	$(PYTHON) examples/figure4.py $(TOOL)
	sh examples/joint.sh $(TOOL)

# dpsel against textbook floating-point code (see bench/ and README.md); built by `all`
# so it cannot rot, run only by `make bench` (BENCH_QUICK=1: a short run; BENCH_ARGS:
# any option of bench_select, e.g. BENCH_ARGS="--n 1e3,1e5 --eps 1").
$(BUILD)/bench_select: $(wildcard bench/*.c) bench/bench.h $(STATIC)
	$(call quiet,CC,bench ($(notdir $@)))$(CC) $(ALL_CFLAGS) $(LTO) -fPIE -pie $(LDHARDENING) $(LDFLAGS) -o $@ $(wildcard bench/*.c) $(STATIC) $(LIBS) -lm

bench: $(BUILD)/bench_select $(TOOL)
	$(BUILD)/bench_select $(if $(filter 1,$(BENCH_QUICK)),--quick) --cli $(TOOL) $(BENCH_ARGS)
	sh bench/pmf_scale.sh $(TOOL) $(if $(filter 1,$(BENCH_QUICK)),1,3)
	$(MAKE) bench-python

# Selector.select from Python against dpsel_select called directly, on 10^6
# scores (bench/python_select.py; part of `make bench`).
bench-python: $(SHARED)
	PYTHONDONTWRITEBYTECODE=1 DPSEL_LIBRARY=$(SHARED) PYTHONPATH=python $(PYTHON) bench/python_select.py

# dpsel.dask.mode against Dask's value_counts().idxmax() on 10^7 raw rows in a
# LocalCluster of two worker processes, medians and ratios side by side
# (bench/dask_mode.py; not part of bench or check: a few minutes).
bench-dask: $(SHARED)
	PYTHONDONTWRITEBYTECODE=1 DPSEL_LIBRARY=$(SHARED) PYTHONPATH=python $(PYTHON) bench/dask_mode.py
