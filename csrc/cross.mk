# csrc/cross.mk: cross builds of libqhasm, qhasm-test and qhasm-speed for
# the targets x86 (i386), ppc32, ppc64 and sparc64.  Included from
# csrc/csrc.mk.  See docs/cross.md.
#
#   make cross            all four targets into $(BUILD)/<target>/
#   make cross-<target>   one target (x86, ppc32, ppc64, sparc64)
#   make cross-test       build and run them all (tests/sh/cross.sh)
#
# Each target is a sub-make of the ordinary library rules of csrc/csrc.mk
# with BUILD=$(BUILD)/<target>, the target's compiler and CSRC_TARGET=<target>,
# from which the manifest (gen/manifest.py mk) gives the generated assembly
# of the target's implementations (*.asm assembled with NASM, *.s with the
# target's GNU as) and the dispatch tables.
# The cross compilers link statically (the binaries run under qemu-user
# without a target sysroot); x86 links normally with gcc -m32.

# the targets and their tools come from the manifest (specs/kernels.conf,
# through $(BUILD)/gen/targets.mk: TARGET_<setting>_<name>); every target
# other than the host's amd64 is a cross target
CROSS_TARGETS := $(filter-out amd64,$(MANIFEST_TARGETS))
# (-m32 without gcc-multilib, which conflicts with the cross compilers, has
# no /usr/include/asm: the x86_64 asm/ headers serve -m32 as well)
CROSS_X86_ASM_INC := $(if $(wildcard /usr/include/asm/errno.h),,$(if \
                     $(wildcard /usr/include/x86_64-linux-gnu/asm/errno.h),-idirafter /usr/include/x86_64-linux-gnu))
cross_cc      = $(TARGET_CC_$(1))
cross_cflags  = $(TARGET_CFLAGS_$(1)) $(if $(filter x86,$(1)),$(CROSS_X86_ASM_INC))
cross_run     = $(TARGET_RUN_$(1))
cross_pkg     = $(TARGET_PKG_$(1))
# NASM targets (ext asm) assemble with -f from the manifest's as= words
cross_is_nasm = $(filter nasm,$(firstword $(TARGET_AS_$(1))))
# the first word of each command must exist
cross_tools   = $(firstword $(call cross_cc,$(1))) $(firstword $(TARGET_AS_$(1))) $(firstword $(call cross_run,$(1)))

.PHONY: cross cross-test $(addprefix cross-,$(CROSS_TARGETS)) $(addprefix cross-check-,$(CROSS_TARGETS))
cross: $(addprefix cross-,$(CROSS_TARGETS))

cross-test:
	BUILD=$(BUILD) MAKE='$(MAKE)' sh tests/sh/cross.sh

# fail loudly when a toolchain is missing (never skip)
$(addprefix cross-check-,$(CROSS_TARGETS)): cross-check-%:
	@for t in $(call cross_tools,$*); do \
	  command -v $$t >/dev/null 2>&1 || { \
	    echo "cross toolchain $* missing: $$t not found; install: $(call cross_pkg,$*)" >&2; exit 1; }; \
	done; \
	mkdir -p $(BUILD); echo 'int main(void) { return 0; }' > $(BUILD)/.cross-$*.c; \
	$(call cross_cc,$*) $(call cross_cflags,$*) -o $(BUILD)/.cross-$*.bin $(BUILD)/.cross-$*.c >/dev/null 2>&1 || { \
	  rm -f $(BUILD)/.cross-$*.c; \
	  echo "cross toolchain $* missing: '$(call cross_cc,$*) $(call cross_cflags,$*)' cannot link a program; install: $(call cross_pkg,$*)" >&2; exit 1; }; \
	rm -f $(BUILD)/.cross-$*.c $(BUILD)/.cross-$*.bin

$(addprefix cross-,$(CROSS_TARGETS)): cross-%: cross-check-% $(QHASM)
	@$(MAKE) --no-print-directory BUILD='$(BUILD)/$*' CC='$(call cross_cc,$*)' QHASM_HOST='$(abspath $(QHASM))' \
	  CFLAGS='$(CFLAGS) $(call cross_cflags,$*)' CSRC_TARGET='$*' \
	  CSRC_NASMFLAGS='$(wordlist 2,9,$(TARGET_AS_$*))' CROSS_AS='$(TARGET_AS_$*)' \
	  $(BUILD)/$*/libqhasm.a $(BUILD)/$*/qhasm-test $(BUILD)/$*/qhasm-speed
	@echo "cross $*: built $(BUILD)/$*/qhasm-test $(BUILD)/$*/qhasm-speed"

# print a target's settings for tests/sh/cross.sh: make -s cross-info-ppc32
# (cc and cflags: for tests/sh/abicheck-cross.sh, which builds its own
# small programs with the target's compiler)
cross-info-%:
	@echo "run=$(call cross_run,$*)"
	@echo "pkg=$(call cross_pkg,$*)"
	@echo "cc=$(call cross_cc,$*)"
	@echo "cflags=$(strip $(call cross_cflags,$*))"

# GNU as sources (the sub-make passes CROSS_AS)
$(BUILD)/out/%.o: out/%.s
	@mkdir -p $(@D)
	$(CROSS_AS) -o $@ $<
