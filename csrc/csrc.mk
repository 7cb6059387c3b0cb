# csrc/csrc.mk: libqhasm (static and shared), its headers, qhasm-test, and
# install/uninstall.  Included by the top-level Makefile, which provides
# CC, CFLAGS, WARN, BUILD, PREFIX, PYTHON and QHASM.
#
# Generated assembly under out/amd64*/ is assembled with NASM and linked in
# when the target (per $(CC) -dumpmachine) is x86_64; the build then defines
# QHASM_HAVE_AMD64 and QHASM_HAVE_OUT_<FOLDER> for each folder present
# (out/amd64-avx2 -> QHASM_HAVE_OUT_AMD64_AVX2), which csrc/dispatch.c uses
# to enable the table entries of those implementations.

CSRC_VERSION := 0.1.0
CSRC_SOMAJOR := 0
CSRC_MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
NASM         ?= nasm
CSRC_NASMFLAGS ?= $(wordlist 2,9,$(TARGET_AS_$(CSRC_TARGET)))

# The target this build is for (cross.mk passes it to its sub-makes): the
# manifest target whose machine prefix $(CC) -dumpmachine has; "c" (the C
# implementations only) on any other machine.
CSRC_MANIFEST := specs/kernels.conf
CSRC_GENDIR   := $(BUILD)/gen
# the manifest's target settings (TARGET_*_<name>), for the cross builds too
-include $(CSRC_GENDIR)/targets.mk
# (made first on a fresh tree, so the missing packages are installed first,
# whatever -j: the include is remade before any other target)
$(CSRC_GENDIR)/targets.mk: $(CSRC_MANIFEST) gen/manifest.py | deps
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest targets-mk > $@.$$$$.tmp && mv $@.$$$$.tmp $@
CSRC_TARGET  ?= $(firstword $(foreach t,$(MANIFEST_TARGETS),$(if $(filter $(TARGET_MACHINE_$(t))%,$(CSRC_MACHINE)),$(t))) c)

# the implementations of this target, from the manifest (gen/manifest.py mk):
# MANIFEST_ASM (generated assembly, aliases excluded), MANIFEST_CSRC (C
# implementations, reference C, family wrappers), MANIFEST_TEST_SRC and
# MANIFEST_SPEED_SRC (the families' qhasm-test and qhasm-speed hooks)
-include $(CSRC_GENDIR)/manifest.mk
$(CSRC_GENDIR)/manifest.mk: $(CSRC_MANIFEST) gen/manifest.py $(wildcard out/ALIASES) $(CSRC_GENDIR)/.target
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest mk --target $(CSRC_TARGET) > $@.$$$$.tmp && mv $@.$$$$.tmp $@
$(CSRC_GENDIR)/.target: FORCE
	@mkdir -p $(@D)
	@echo '$(CSRC_TARGET)' | cmp -s - $@ || echo '$(CSRC_TARGET)' > $@
.PHONY: FORCE
FORCE:
$(CSRC_GENDIR)/manifest_tables.c: $(CSRC_MANIFEST) gen/manifest.py $(wildcard out/ALIASES) $(CSRC_GENDIR)/.target
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest c --target $(CSRC_TARGET) > $@.$$$$.tmp && mv $@.$$$$.tmp $@
$(CSRC_GENDIR)/prims.h: $(CSRC_MANIFEST) gen/manifest.py
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest h > $@.$$$$.tmp && { cmp -s $@.$$$$.tmp $@ && rm -f $@.$$$$.tmp || mv $@.$$$$.tmp $@; }
$(CSRC_GENDIR)/test_hooks.c $(CSRC_GENDIR)/speed_hooks.c: $(CSRC_GENDIR)/%_hooks.c: $(CSRC_MANIFEST) gen/manifest.py
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest hooks $* > $@.$$$$.tmp && mv $@.$$$$.tmp $@
$(CSRC_GENDIR)/wrappers.c: $(CSRC_MANIFEST) gen/manifest.py
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest wrappers > $@.$$$$.tmp && mv $@.$$$$.tmp $@
$(CSRC_GENDIR)/libqhasm.map: $(CSRC_MANIFEST) gen/manifest.py
	@mkdir -p $(@D)
	$(PYTHON) -m gen.manifest map > $@.$$$$.tmp && mv $@.$$$$.tmp $@

CSRC_LIB_SRC := csrc/cpu.c csrc/dispatch.c csrc/randombytes.c csrc/ct_sort.c csrc/mc_gauss.c csrc/mc_fixedweight.c $(MANIFEST_CSRC)
CSRC_HDR     := $(wildcard csrc/*.h csrc/include/*.h csrc/ref/*.h) $(CSRC_GENDIR)/prims.h
CSRC_ASM     := $(MANIFEST_ASM)
CSRC_CFLAGS  := $(CFLAGS) $(WARN) -fPIC -Icsrc/include -Icsrc -I$(CSRC_GENDIR)
CSRC_OBJ     := $(patsubst csrc/%.c,$(BUILD)/csrc/%.o,$(CSRC_LIB_SRC)) $(BUILD)/gen/manifest_tables.o \
                $(BUILD)/gen/wrappers.o \
                $(patsubst out/%.s,$(BUILD)/out/%.o,$(patsubst out/%.asm,$(BUILD)/out/%.o,$(CSRC_ASM)))

CSRC_A       := $(BUILD)/libqhasm.a
CSRC_SO      := $(BUILD)/libqhasm.so.$(CSRC_VERSION)
CSRC_TEST    := $(BUILD)/qhasm-test

.PHONY: lib install uninstall
all: lib $(CSRC_TEST)
lib: $(CSRC_A) $(CSRC_SO) $(BUILD)/libqhasm.so.$(CSRC_SOMAJOR) $(BUILD)/libqhasm.so

# rebuild the C objects when the flags change
$(BUILD)/csrc/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CSRC_CFLAGS)' | cmp -s - $@ || echo '$(CSRC_CFLAGS)' > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	$(CC) $(CSRC_CFLAGS) -c -o $@ $<

$(BUILD)/csrc/%.o: csrc/%.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_CFLAGS) -c -o $@ $<

$(BUILD)/out/%.o: out/%.asm
	@mkdir -p $(@D)
	$(NASM) $(CSRC_NASMFLAGS) -o $@ $<

$(CSRC_A): $(CSRC_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CSRC_SO): $(CSRC_OBJ) $(CSRC_GENDIR)/libqhasm.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libqhasm.so.$(CSRC_SOMAJOR) \
	  -Wl,--version-script=$(CSRC_GENDIR)/libqhasm.map -Wl,-z,noexecstack -o $@ $(CSRC_OBJ)

$(BUILD)/libqhasm.so.$(CSRC_SOMAJOR): $(CSRC_SO)
	ln -sf libqhasm.so.$(CSRC_VERSION) $@

$(BUILD)/libqhasm.so: $(BUILD)/libqhasm.so.$(CSRC_SOMAJOR)
	ln -sf libqhasm.so.$(CSRC_SOMAJOR) $@

# the test command links the static library (it uses internal symbols)
# and the ABI checker (csrc/abicheck.c and its per-architecture trampolines,
# each assembling to nothing on other architectures)
CSRC_ABICHECK_OBJ := $(BUILD)/csrc/abicheck.o $(patsubst csrc/%.S,$(BUILD)/csrc/%.o,$(wildcard csrc/abicheck_*.S))
CSRC_TEST_OBJ := $(BUILD)/csrc/test.o $(patsubst csrc/%.c,$(BUILD)/csrc/%.o,$(MANIFEST_TEST_SRC)) \
                 $(BUILD)/gen/test_hooks.o
# the kem family's checks include the test-only NIST DRBG (tests/kat/)
$(BUILD)/csrc/test_kem.o: $(wildcard tests/kat/*.c)
$(CSRC_TEST): $(CSRC_TEST_OBJ) $(CSRC_ABICHECK_OBJ) $(CSRC_A)
	$(CC) $(CFLAGS) -Wl,-z,noexecstack -o $@ $(CSRC_TEST_OBJ) $(CSRC_ABICHECK_OBJ) $(CSRC_A)

$(BUILD)/csrc/%.o: csrc/%.S $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_CFLAGS) -c -o $@ $<

# ---- install / uninstall (PREFIX, DESTDIR) -------------------------------
CSRC_D       = $(DESTDIR)$(PREFIX)
CSRC_DOCS    = $(wildcard README.md docs/*.md)

install: lib $(CSRC_TEST) $(QHASM)
	install -d $(CSRC_D)/lib/pkgconfig $(CSRC_D)/include $(CSRC_D)/bin $(CSRC_D)/share/doc/qhasm
	install -m 644 $(CSRC_A) $(CSRC_D)/lib/libqhasm.a
	install -m 755 $(CSRC_SO) $(CSRC_D)/lib/libqhasm.so.$(CSRC_VERSION)
	ln -sf libqhasm.so.$(CSRC_VERSION) $(CSRC_D)/lib/libqhasm.so.$(CSRC_SOMAJOR)
	ln -sf libqhasm.so.$(CSRC_SOMAJOR) $(CSRC_D)/lib/libqhasm.so
	install -m 644 csrc/include/qhasm.h csrc/include/qhasm_crypto.h $(CSRC_D)/include/
	install -m 755 $(QHASM) $(CSRC_TEST) $(CSRC_D)/bin/
	$(if $(CSRC_DOCS),install -m 644 $(CSRC_DOCS) $(CSRC_D)/share/doc/qhasm/)
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' 'libdir=$${exec_prefix}/lib' \
	  'includedir=$${prefix}/include' '' 'Name: qhasm' \
	  'Description: qhasm crypto kernels (Salsa20 family, Poly1305) with run-time CPU dispatch' \
	  'Version: $(CSRC_VERSION)' 'Libs: -L$${libdir} -lqhasm' 'Cflags: -I$${includedir}' \
	  > $(CSRC_D)/lib/pkgconfig/qhasm.pc

uninstall:
	rm -f $(CSRC_D)/lib/libqhasm.a $(CSRC_D)/lib/libqhasm.so.$(CSRC_VERSION) \
	  $(CSRC_D)/lib/libqhasm.so.$(CSRC_SOMAJOR) $(CSRC_D)/lib/libqhasm.so \
	  $(CSRC_D)/lib/pkgconfig/qhasm.pc \
	  $(CSRC_D)/include/qhasm.h $(CSRC_D)/include/qhasm_crypto.h \
	  $(CSRC_D)/bin/$(notdir $(QHASM)) $(CSRC_D)/bin/qhasm-test
	rm -rf $(CSRC_D)/share/doc/qhasm

# ---- qhasm-speed, make speed, make bench ----------------------------------
# qhasm-speed links the static library, the cycle counter and a code-size
# table that gen/codesize.py derives from the library objects.  --plot runs
# `$(PYTHON) -m gen.plot` from this tree (or from $(PREFIX)/share/qhasm once
# installed).  `make bench` compares with libsodium and OpenSSL when
# pkg-config finds them; it is not part of `make test`.
CSRC_SPEED     := $(BUILD)/qhasm-speed
CSRC_BENCH     := $(BUILD)/qhasm-bench
CSRC_MAN       := docs/man/qhasm.1 docs/man/qhasm-test.1 docs/man/qhasm-speed.1
CSRC_SPEED_DEFS = -DQHASM_SRCDIR='"$(CURDIR)"' -DQHASM_DATADIR='"$(PREFIX)/share/qhasm"' \
                  -DQHASM_PYTHON='"$(PYTHON)"'
# evaluated only when the bench program is built
CSRC_BENCH_PKGS = $(shell for p in libsodium libcrypto nettle; do pkg-config --exists $$p 2>/dev/null && echo $$p; done)
CSRC_BENCH_DEFS = $(if $(filter libsodium,$(CSRC_BENCH_PKGS)),-DHAVE_SODIUM) \
                  $(if $(filter libcrypto,$(CSRC_BENCH_PKGS)),-DHAVE_OPENSSL) \
                  $(if $(filter nettle,$(CSRC_BENCH_PKGS)),-DHAVE_NETTLE)
CSRC_BENCH_LIBS = $(if $(CSRC_BENCH_PKGS),$(shell pkg-config --cflags --libs $(CSRC_BENCH_PKGS)))

.PHONY: speed install-speed uninstall-speed
all: $(CSRC_SPEED)

$(BUILD)/csrc/speedsizes.c: $(CSRC_OBJ) gen/codesize.py
	@mkdir -p $(@D)
	$(PYTHON) -m gen.codesize $(CSRC_OBJ) > $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(BUILD)/csrc/speedsizes.o: $(BUILD)/csrc/speedsizes.c csrc/speedsizes.h
	$(CC) $(CSRC_CFLAGS) -c -o $@ $<

# the cost report's lower bounds, per kernel and model (gen/bounds.py), by
# the translator built for the host (cross builds pass QHASM_HOST)
QHASM_HOST ?= $(QHASM)
$(BUILD)/csrc/speedbounds.c: $(CSRC_ASM) gen/bounds.py $(QHASM_HOST)
	@mkdir -p $(@D)
	$(PYTHON) -m gen.bounds $(abspath $(QHASM_HOST)) $(CSRC_ASM) > $@.$$$$.tmp && mv $@.$$$$.tmp $@

$(BUILD)/csrc/speedbounds.o: $(BUILD)/csrc/speedbounds.c csrc/speedsizes.h
	$(CC) $(CSRC_CFLAGS) -c -o $@ $<

$(BUILD)/csrc/speed.o: csrc/speed.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_CFLAGS) $(CSRC_SPEED_DEFS) -c -o $@ $<

CSRC_SPEED_OBJ := $(BUILD)/csrc/speed.o $(BUILD)/csrc/cpucycles.o $(BUILD)/csrc/speedsizes.o \
                  $(BUILD)/csrc/speedbounds.o $(BUILD)/gen/speed_hooks.o \
                  $(patsubst csrc/%.c,$(BUILD)/csrc/%.o,$(MANIFEST_SPEED_SRC))
$(CSRC_SPEED): $(CSRC_SPEED_OBJ) $(CSRC_A)
	$(CC) $(CFLAGS) -Wl,-z,noexecstack -o $@ $(CSRC_SPEED_OBJ) $(CSRC_A)

# full report: $(BUILD)/speed.txt (lines), $(BUILD)/speed.md (tables), $(BUILD)/speed.svg
speed: $(CSRC_SPEED)
	$(CSRC_SPEED) > $(BUILD)/speed.txt
	$(CSRC_SPEED) --table --plot $(BUILD)/speed.svg > $(BUILD)/speed.md
	@echo "wrote $(BUILD)/speed.txt $(BUILD)/speed.md $(BUILD)/speed.svg"

$(BUILD)/csrc/bench.o: csrc/bench.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_CFLAGS) $(CSRC_BENCH_DEFS) -c -o $@ $<

# the C Salsa20 kernel as issue 14 states its baseline: gcc -O3
# -march=native, whatever CFLAGS built the library's "c"; its symbols get
# the prefix bench_o3_ so that both link into qhasm-bench
$(BUILD)/csrc/salsa20_c_o3.o: csrc/salsa20_c.c $(CSRC_HDR)
	@mkdir -p $(@D)
	$(CC) -O3 -march=native $(WARN) -fPIC -Icsrc/include -Icsrc -I$(CSRC_GENDIR) -c -o $@.tmp.o $<
	objcopy --prefix-symbols=bench_o3_ $@.tmp.o $@ && rm -f $@.tmp.o

$(CSRC_BENCH): $(BUILD)/csrc/bench.o $(BUILD)/csrc/cpucycles.o $(BUILD)/csrc/salsa20_c_o3.o $(CSRC_A)
	$(CC) $(CFLAGS) -Wl,-z,noexecstack -o $@ $(BUILD)/csrc/bench.o $(BUILD)/csrc/cpucycles.o \
	  $(BUILD)/csrc/salsa20_c_o3.o $(CSRC_A) $(CSRC_BENCH_LIBS)

bench: $(CSRC_BENCH) $(CSRC_SPEED) $(QHASM)
	$(CSRC_BENCH)
	@echo; echo "== djb's qhasm sources (../shared/qhasm-corpus): the shipped assembly beside our translation, then rescheduled for zen4"
	$(PYTHON) tests/corpus/corpus.py --qhasm $(QHASM) --speed
	$(PYTHON) tests/corpus/corpus.py --qhasm $(QHASM) --speed --model zen4
	@echo; echo "== the CPU's own model schedules at least as fast as every other model's (issue 19; a benchmark: timed, so not in make test)"
	BUILD=$(BUILD) sh tests/bench/schedcmp.sh; rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]

install: install-speed
install-speed: $(CSRC_SPEED)
	install -d $(CSRC_D)/bin $(CSRC_D)/share/man/man1 $(CSRC_D)/share/qhasm/gen
	install -m 755 $(CSRC_SPEED) $(CSRC_D)/bin/
	install -m 644 $(CSRC_MAN) $(CSRC_D)/share/man/man1/
	install -m 644 gen/plot.py $(CSRC_D)/share/qhasm/gen/plot.py
	printf '' > $(CSRC_D)/share/qhasm/gen/__init__.py

uninstall: uninstall-speed
uninstall-speed:
	rm -f $(CSRC_D)/bin/qhasm-speed $(addprefix $(CSRC_D)/share/man/man1/,$(notdir $(CSRC_MAN)))
	rm -rf $(CSRC_D)/share/qhasm

# ---- cross builds (x86, ppc32, ppc64, sparc64): csrc/cross.mk -------------
-include csrc/cross.mk

# ---- hardening: fuzzing the translator, the C library under sanitizers --
# `make fuzz`: libFuzzer + ASan + UBSan over the whole translator pipeline
# (entry point in qhasm/main.c under -DQHASM_FUZZ), FUZZ_SECONDS per target
# with the repository's .q files as seed corpus; see tests/fuzz/README.md.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
QHASM_FUZZ   := $(BUILD)/qhasm-fuzz
.PHONY: fuzz qhasm-test-asan

$(QHASM_FUZZ): $(QHASM_SRC) $(QHASM_HDR) $(BUILD)/md.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  -DQHASM_FUZZ -g -O1 -Iqhasm -o $@ $(QHASM_SRC) $(BUILD)/md.c

fuzz: $(QHASM_FUZZ) $(QHASM)
	FUZZ_SECONDS=$(FUZZ_SECONDS) BUILD=$(BUILD) QHASM=$(QHASM) FUZZER=$(QHASM_FUZZ) sh tests/fuzz/fuzz.sh

# `make qhasm-test-asan`: the library (C glue, dispatch, C and reference
# kernels, and the generated assembly objects as they are) and qhasm-test
# built with -fsanitize=address,undefined, then run (ABI checks included).
CSRC_ASAN_DIR   := $(BUILD)/asan
CSRC_ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CSRC_ASAN_COBJ  := $(patsubst csrc/%.c,$(CSRC_ASAN_DIR)/csrc/%.o,$(CSRC_LIB_SRC) csrc/test.c csrc/abicheck.c \
                     $(MANIFEST_TEST_SRC)) \
                   $(CSRC_ASAN_DIR)/csrc/abicheck_amd64.o $(CSRC_ASAN_DIR)/gen/manifest_tables.o \
                   $(CSRC_ASAN_DIR)/gen/wrappers.o \
                   $(CSRC_ASAN_DIR)/gen/test_hooks.o
CSRC_ASAN_OBJ   := $(CSRC_ASAN_COBJ) $(patsubst out/%.asm,$(BUILD)/out/%.o,$(CSRC_ASM))

$(CSRC_ASAN_DIR)/gen/%.o: $(CSRC_GENDIR)/%.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_ASAN_FLAGS) $(WARN) -Icsrc/include -Icsrc -I$(CSRC_GENDIR) -c -o $@ $<

$(CSRC_ASAN_DIR)/csrc/%.o: csrc/%.c $(CSRC_HDR) $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_ASAN_FLAGS) $(WARN) -Icsrc/include -Icsrc -I$(CSRC_GENDIR) -c -o $@ $<

$(CSRC_ASAN_DIR)/csrc/%.o: csrc/%.S $(BUILD)/csrc/.flags
	@mkdir -p $(@D)
	$(CC) $(CSRC_ASAN_FLAGS) -Icsrc -c -o $@ $<

$(CSRC_ASAN_DIR)/qhasm-test: $(CSRC_ASAN_OBJ)
	$(CC) $(CSRC_ASAN_FLAGS) -Wl,-z,noexecstack -o $@ $(CSRC_ASAN_OBJ)

qhasm-test-asan: $(CSRC_ASAN_DIR)/qhasm-test
	QHASM_KAT_SHORT=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 $(CSRC_ASAN_DIR)/qhasm-test -q
