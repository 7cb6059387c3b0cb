# qhasm: GNU make. `make` builds the translator, regenerates and assembles the
# kernels and builds the library and commands; `make test` runs every test.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra
BUILD   ?= build
PYTHON  ?= python3
PREFIX  ?= /usr/local

QHASM_SRC := $(wildcard qhasm/*.c qhasm/*/*.c)
QHASM_HDR := $(wildcard qhasm/*.h qhasm/*/*.h)
QHASM_MD  := $(wildcard qhasm/*/*.md) $(sort $(wildcard qhasm/*/models/*.model))
QHASM     := $(BUILD)/qhasm

.PHONY: all deps translator test fuzz-diff test-asan bench bench-translator bench-kernels clean regen uarch
all: deps translator
	@echo "built:"
	@printf '  %-28s %s\n' "$(QHASM)" "the translator (qhasm --help)"
	@for f in libqhasm.a libqhasm.so qhasm-test qhasm-speed; do \
	  [ -e $(BUILD)/$$f ] && printf '  %-28s %s\n' "$(BUILD)/$$f" \
	    "$$(case $$f in libqhasm.a) echo 'static library (include csrc/include/qhasm.h)';; \
	        libqhasm.so) echo 'shared library';; qhasm-test) echo 'tests every kernel implementation';; \
	        qhasm-speed) echo 'cycle counts (man docs/man/qhasm-speed.1)';; esac)"; done; true
	@echo "  out/                         generated assembly, one folder per implementation"
	@echo "next: make test; make install PREFIX=...; make bench"

# `make regen`: regenerate the generated .q and out/ from specs/ (and the
# per-model variants listed in specs/kernels.conf (its `uarch` lines))
regen: $(QHASM)
	$(PYTHON) -m gen.regen

# `make UARCH=name`: every kernel of the model's target scheduled for it,
# into out/<impl>-name/, recorded in specs/kernels.conf (its `uarch` lines), then the library
# rebuilt with the variants (docs/new-microarchitecture.md); the library's
# rules are read only by that second make, which sees the new folders
ifdef UARCH
all: uarch
uarch: $(QHASM)
	$(PYTHON) -m gen.regen --uarch $(UARCH) --add
	$(MAKE) UARCH= all
endif

deps:
	@./.ci/deps

translator: $(QHASM)

$(BUILD)/md.c: $(QHASM_MD) gen/embed.py
	@mkdir -p $(BUILD)
	$(PYTHON) -m gen.embed $(QHASM_MD) > $@.tmp && mv $@.tmp $@

$(QHASM): $(QHASM_SRC) $(QHASM_HDR) $(BUILD)/md.c
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(WARN) -Iqhasm -o $@ $(QHASM_SRC) $(BUILD)/md.c

# the translator under AddressSanitizer and UndefinedBehaviorSanitizer
$(BUILD)/asan/qhasm: $(QHASM_SRC) $(QHASM_HDR) $(BUILD)/md.c
	@mkdir -p $(BUILD)/asan
	$(CC) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all $(WARN) -Iqhasm -o $@ $(QHASM_SRC) $(BUILD)/md.c

test: all
	$(PYTHON) tests/run.py

# random differential testing with fresh seeds (tests/sh/diff.sh runs fixed ones)
SECONDS ?= 60
fuzz-diff: all
	$(PYTHON) -m gen.qdiff --seconds $(SECONDS) --reduce --keep tests/diff/regressions --coverage $(BUILD)/diff-coverage.txt

test-asan: $(BUILD)/asan/qhasm
	ASAN_OPTIONS=detect_leaks=0 QHASM=$(BUILD)/asan/qhasm $(PYTHON) tests/run.py --translator-only
	ASAN_OPTIONS=detect_leaks=0 $(PYTHON) tests/malformed.py $(BUILD)/asan/qhasm 1500
	$(MAKE) qhasm-test-asan

# OLD=path/to/an/older/qhasm: that one and this one side by side, alternating runs
bench-translator: $(QHASM)
	$(PYTHON) -m gen.benchgen --qhasm $(QHASM) $(if $(OLD),--compare $(OLD))

# OLD=rev (default df6640b, before issue 14's allocator): every amd64 kernel
# of today's .q translated by that revision's translator and by this one,
# timed alternately (gen/benchkernels.py; docs/allocation-speed.md)
bench-kernels: all
	$(PYTHON) -m gen.benchkernels $(if $(OLD),--old $(OLD)) $(if $(ROUNDS),--rounds $(ROUNDS))

clean:
	rm -rf $(BUILD)

ifndef UARCH
-include csrc/csrc.mk
endif
