/* dialect.c: the assembler dialects, one table each: NASM (amd64, x86) and
 * GNU as (PowerPC; PowerPC64 ELFv1 with function descriptors; SPARC).
 * {0} and {1} stand for the arguments named in all.h. */
#include "all.h"

const Dialect D_nasm = {
	.comment = "; ",
	.header = "default rel\n%use smartalign\nalignmode p6, 32",
	.funchead = "section .text\nglobal {0}:function ({0}.end - {0})\nalign 32\n{0}:",
	.functail = ".end:",
	.loclabel = ".L{1}",
	.line = "%line {1}+0 {0}",
	.rodata = "section .rodata align=64",
	.align64 = "align 64",
	.loopalign = "align 32",
	.label = "{0}:",
	.escape = "${0}",
	.trailer = "section .note.GNU-stack noalloc noexec nowrite progbits",
	.external = "extern {0}",
	.data = {"db", "dw", "dd", "dq"},
};

/* 32-bit NASM: no RIP-relative default */
const Dialect D_nasm32 = {
	.comment = "; ",
	.header = "%use smartalign\nalignmode p6, 32",
	.funchead = "section .text\nglobal {0}:function ({0}.end - {0})\nalign 32\n{0}:",
	.functail = ".end:",
	.loclabel = ".L{1}",
	.line = "%line {1}+0 {0}",
	.rodata = "section .rodata align=64",
	.align64 = "align 64",
	.loopalign = "align 32",
	.label = "{0}:",
	.escape = "${0}",
	.trailer = "section .note.GNU-stack noalloc noexec nowrite progbits",
	.external = "extern {0}",
	.data = {"db", "dw", "dd", "dq"},
};

const Dialect D_gas = {
	.comment = "# ",
	.header = "\t.file 1 \"{0}\"",
	.funchead = "\t.text\n\t.globl {0}\n\t.type {0}, @function\n\t.p2align 5\n{0}:",
	.functail = "\t.size {0}, .-{0}",
	.loclabel = ".L{0}.{1}",
	.line = "\t.loc 1 {1}",
	.rodata = "\t.section .rodata",
	.align64 = "\t.p2align 6",
	.label = "{0}:",
	.trailer = "\t.section .note.GNU-stack,\"\",@progbits",
	.data = {".byte", ".short", ".long", ".quad"},
};

/* ELFv1: the global symbol is a descriptor in .opd; code follows .L.name */
const Dialect D_gasppc64 = {
	.comment = "# ",
	.header = "\t.file 1 \"{0}\"",
	.funchead = "\t.section \".opd\",\"aw\"\n\t.p2align 3\n\t.globl {0}\n\t.type {0}, @function\n{0}:\n"
		    "\t.quad .L.{0}, .TOC.@tocbase, 0\n\t.text\n\t.p2align 5\n.L.{0}:",
	.functail = "\t.size {0}, 24",
	.loclabel = ".L{0}.{1}",
	.line = "\t.loc 1 {1}",
	.rodata = "\t.section .rodata",
	.align64 = "\t.p2align 6",
	.label = "{0}:",
	.trailer = "\t.section .note.GNU-stack,\"\",@progbits",
	.data = {".byte", ".short", ".long", ".quad"},
};

const Dialect D_gassparc = {
	.comment = "! ",
	.header = "\t.file 1 \"{0}\"",
	.funchead = "\t.text\n\t.globl {0}\n\t.type {0}, #function\n\t.p2align 5\n{0}:",
	.functail = "\t.size {0}, .-{0}",
	.loclabel = ".L{0}.{1}",
	.line = "\t.loc 1 {1}",
	.rodata = "\t.section \".rodata\"",
	.align64 = "\t.p2align 6",
	.label = "{0}:",
	.trailer = "\t.section .note.GNU-stack,\"\",@progbits",
	.data = {".byte", ".half", ".word", ".xword"},
};
