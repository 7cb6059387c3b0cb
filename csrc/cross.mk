# csrc/cross.mk: cross builds of libqhasm, qhasm-test and qhasm-speed for
# the targets x86 (i386), ppc32, ppc64 and sparc64.  Included from
# csrc/csrc.mk.  See docs/cross.md.
#
#   make cross            all four targets into $(BUILD)/<target>/
#   make cross-<target>   one target (x86, ppc32, ppc64, sparc64)
#   make cross-test       build and run them all (tests/sh/cross.sh)
#
# Each target is a sub-make of the ordinary library rules of csrc/csrc.mk
# with BUILD=$(BUILD)/<target>, the target's compiler, and these overrides:
#   CSRC_ASM   the generated assembly for the target: out/<target>/* and
#              out/<target>-*/* (*.asm for x86, assembled with nasm -f elf32;
#              *.s for the others, assembled with the target's GNU as)
#   CSRC_DEFS  -DQHASM_HAVE_<TARGET> (X86, PPC32, PPC64, SPARC64) and
#              -DQHASM_HAVE_OUT_<FOLDER> per folder present
#              (out/x86-sse2 -> QHASM_HAVE_OUT_X86_SSE2,
#               out/ppc32-altivec -> QHASM_HAVE_OUT_PPC32_ALTIVEC),
#              which csrc/dispatch.c uses to enable its table entries.
# The cross compilers link statically (the binaries run under qemu-user
# without a target sysroot); x86 links normally with gcc -m32.

CROSS_TARGETS := x86 ppc32 ppc64 sparc64

CROSS_CC_x86         := gcc -m32
CROSS_CC_ppc32       := powerpc-linux-gnu-gcc
CROSS_CC_ppc64       := powerpc64-linux-gnu-gcc
CROSS_CC_sparc64     := sparc64-linux-gnu-gcc
# extra compiler flags; the link of the commands uses them too
# (-m32 without gcc-multilib, which conflicts with the cross compilers, has
# no /usr/include/asm: the x86_64 asm/ headers serve -m32 as well)
CROSS_CFLAGS_x86     := $(if $(wildcard /usr/include/asm/errno.h),,$(if \
                        $(wildcard /usr/include/x86_64-linux-gnu/asm/errno.h),-idirafter /usr/include/x86_64-linux-gnu))
CROSS_CFLAGS_ppc32   := -static
CROSS_CFLAGS_ppc64   := -static
CROSS_CFLAGS_sparc64 := -static
# GNU as for the .s files (x86 uses NASM)
CROSS_AS_ppc32       := powerpc-linux-gnu-as -a32 -many
CROSS_AS_ppc64       := powerpc64-linux-gnu-as -a64 -many
CROSS_AS_sparc64     := sparc64-linux-gnu-as -64 -Av9b
CROSS_EXT_x86        := asm
CROSS_EXT_ppc32      := s
CROSS_EXT_ppc64      := s
CROSS_EXT_sparc64    := s
# how to run a target binary (empty: natively)
CROSS_RUN_x86        :=
CROSS_RUN_ppc32      := qemu-ppc -cpu 7400
CROSS_RUN_ppc64      := qemu-ppc64
CROSS_RUN_sparc64    := qemu-sparc64
# the Debian packages that provide all of the above
CROSS_PKG_x86        := nasm libc6-dev-i386 lib32gcc-12-dev
CROSS_PKG_ppc32      := gcc-powerpc-linux-gnu binutils-powerpc-linux-gnu libc6-dev-powerpc-cross qemu-user
CROSS_PKG_ppc64      := gcc-powerpc64-linux-gnu binutils-powerpc64-linux-gnu libc6-dev-ppc64-cross qemu-user
CROSS_PKG_sparc64    := gcc-sparc64-linux-gnu binutils-sparc64-linux-gnu libc6-dev-sparc64-cross qemu-user

cross_upper   = $(shell echo '$(1)' | tr 'a-z-' 'A-Z_')
cross_asm     = $(sort $(wildcard out/$(1)/*.$(CROSS_EXT_$(1)) out/$(1)-*/*.$(CROSS_EXT_$(1))))
cross_dirs    = $(sort $(patsubst %/,%,$(dir $(call cross_asm,$(1)))))
cross_defs    = -DQHASM_HAVE_$(call cross_upper,$(1)) \
                $(foreach d,$(call cross_dirs,$(1)),-DQHASM_HAVE_OUT_$(call cross_upper,$(notdir $(d))))
# the first word of each command must exist
cross_tools   = $(firstword $(CROSS_CC_$(1))) $(if $(CROSS_AS_$(1)),$(firstword $(CROSS_AS_$(1))),$(NASM)) \
                $(firstword $(CROSS_RUN_$(1)))

.PHONY: cross cross-test $(addprefix cross-,$(CROSS_TARGETS)) $(addprefix cross-check-,$(CROSS_TARGETS))
cross: $(addprefix cross-,$(CROSS_TARGETS))

cross-test:
	BUILD=$(BUILD) MAKE='$(MAKE)' sh tests/sh/cross.sh

# fail loudly when a toolchain is missing (never skip)
$(addprefix cross-check-,$(CROSS_TARGETS)): cross-check-%:
	@for t in $(call cross_tools,$*); do \
	  command -v $$t >/dev/null 2>&1 || { \
	    echo "cross toolchain $* missing: $$t not found; install: $(CROSS_PKG_$*)" >&2; exit 1; }; \
	done; \
	mkdir -p $(BUILD); echo 'int main(void) { return 0; }' > $(BUILD)/.cross-$*.c; \
	$(CROSS_CC_$*) $(CROSS_CFLAGS_$*) -o $(BUILD)/.cross-$*.bin $(BUILD)/.cross-$*.c >/dev/null 2>&1 || { \
	  rm -f $(BUILD)/.cross-$*.c; \
	  echo "cross toolchain $* missing: '$(CROSS_CC_$*) $(CROSS_CFLAGS_$*)' cannot link a program; install: $(CROSS_PKG_$*)" >&2; exit 1; }; \
	rm -f $(BUILD)/.cross-$*.c $(BUILD)/.cross-$*.bin

$(addprefix cross-,$(CROSS_TARGETS)): cross-%: cross-check-% $(QHASM)
	@$(MAKE) --no-print-directory BUILD='$(BUILD)/$*' CC='$(CROSS_CC_$*)' QHASM_HOST='$(abspath $(QHASM))' \
	  CFLAGS='$(CFLAGS) $(CROSS_CFLAGS_$*)' \
	  CSRC_ASM='$(call cross_asm,$*)' CSRC_DEFS='$(strip $(call cross_defs,$*))' \
	  CSRC_NASMFLAGS='-f elf32' CROSS_AS='$(CROSS_AS_$*)' \
	  $(BUILD)/$*/libqhasm.a $(BUILD)/$*/qhasm-test $(BUILD)/$*/qhasm-speed
	@echo "cross $*: built $(BUILD)/$*/qhasm-test $(BUILD)/$*/qhasm-speed ($(words $(call cross_asm,$*)) assembly files)"

# print a target's settings for tests/sh/cross.sh: make -s cross-info-ppc32
# (cc and cflags: for tests/sh/abicheck-cross.sh, which builds its own
# small programs with the target's compiler)
cross-info-%:
	@echo "run=$(CROSS_RUN_$*)"
	@echo "pkg=$(CROSS_PKG_$*)"
	@echo "defs=$(strip $(call cross_defs,$*))"
	@echo "cc=$(CROSS_CC_$*)"
	@echo "cflags=$(strip $(CROSS_CFLAGS_$*))"

# GNU as sources (the sub-make passes CROSS_AS)
$(BUILD)/out/%.o: out/%.s
	@mkdir -p $(@D)
	$(CROSS_AS) -o $@ $<
