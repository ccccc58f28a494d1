# dpsel -- exact differentially private selection.
#   make            the library (static and shared) and the dpsel tool
#   make demo       install missing packages, build, run the tool on examples/
#   make check      install missing packages, build, run every test and proof
#   make proofs     Frama-C WP on the verified core
#   make install PREFIX=/usr/local
#   make clean

PREFIX ?= /usr/local
CC ?= cc
VERSION := 0.1.0
SOVERSION := 0

WARNINGS := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
            -Wmissing-prototypes -Wcast-qual -Wvla -Wundef
HARDENING := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fstack-clash-protection \
             -fcf-protection
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARNINGS) $(HARDENING) $(CFLAGS) -Iinclude -Ispec
LDHARDENING := -Wl,-z,relro,-z,now
LIBS := -lmpfr -lgmp -lsodium

CORE_SRC := $(wildcard src/core/*.c)
LIB_SRC := $(CORE_SRC) $(wildcard src/exact/*.c) src/rng.c src/select.c src/error.c
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/*.c)

BUILD := build
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
STATIC := $(BUILD)/libdpsel.a
SHARED := $(BUILD)/libdpsel.so.$(VERSION)
TOOL := $(BUILD)/dpsel
TESTS := $(BUILD)/tests/dpsel-tests

.PHONY: bench all demo check test cli-test valgrind readme-example exports proofs install clean deps
all: $(STATIC) $(SHARED) $(TOOL)

$(BUILD)/pic/%.o: %.c include/dpsel.h $(wildcard src/*/*.h) $(wildcard spec/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DDPSEL_BUILDING -c $< -o $@

$(BUILD)/src/cli/%.o: src/cli/%.c include/dpsel.h $(wildcard src/cli/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIE -c $< -o $@

$(STATIC): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libdpsel.so.$(SOVERSION) $(LDHARDENING) -o $@ $^ $(LIBS)
	ln -sf libdpsel.so.$(VERSION) $(BUILD)/libdpsel.so.$(SOVERSION)
	ln -sf libdpsel.so.$(VERSION) $(BUILD)/libdpsel.so

$(TOOL): $(CLI_OBJ) $(STATIC)
	$(CC) -pie $(LDHARDENING) -o $@ $(CLI_OBJ) $(STATIC) $(LIBS)

# Tests link the static library and may call its internal (core) functions.
$(TESTS): $(TEST_SRC) $(wildcard tests/*.h) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc -o $@ $(TEST_SRC) $(STATIC) -lcriterion $(LIBS) -lm -lpthread

deps:
	@sh .ci/install-deps

test: $(TESTS) $(TOOL)
	DPSEL_TOOL=$(TOOL) $(TESTS) --jobs 2

cli-test: $(TOOL)
	sh tests/cli.sh $(TOOL)

valgrind: $(TOOL)
	sh tests/valgrind.sh $(TOOL)

# Frama-C WP on the verified core (see proofs/run.sh and proofs/functions.txt).
proofs:
	sh proofs/run.sh

exports: $(SHARED)
	sh tests/exports.sh $(SHARED)

# The README's C example must compile, link and run as written.
readme-example: all
	sh tests/readme-example.sh README.md $(BUILD)

demo: deps
	$(MAKE) all
	sh examples/demo.sh $(TOOL)

check: deps
	$(MAKE) all
	$(MAKE) test cli-test valgrind readme-example exports proofs

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/dpsel.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libdpsel.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libdpsel.so.$(SOVERSION)
	ln -sf libdpsel.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libdpsel.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' dpsel.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dpsel.pc
	install -m 755 $(TOOL) $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf $(BUILD)

# Timings of one selection (median of repeated runs); see bench/.
$(BUILD)/bench_select: bench/bench_select.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC) $(LIBS)

bench: $(BUILD)/bench_select
	$(BUILD)/bench_select 1000000
