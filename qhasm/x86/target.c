/* x86/target.c: the x86 (i386) Target: seven allocatable integer
 * registers, xmm0-7 with SSE2, the cdecl ABI (every argument on the stack,
 * result in eax, ebx/esi/edi/ebp callee-saved, 16-byte stack alignment at
 * calls as on Linux), frame layout, prologue and epilogue, NASM memory
 * operands.  Stack slots are aligned to at most 16 bytes (vector spills
 * use unaligned moves, so larger alignment is only a speed matter). */
#include "../all.h"
#include "x86.h"

static const char *const gpr[3][8] = {
	{"al", "cl", "dl", "bl", NULL, NULL, NULL, NULL},
	{"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"},
	{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"},
};
static const char *const xmm[8] = {"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"};

static const char *regview(int file, int reg, int bits)
{
	if (file == FGPR && reg >= 0 && reg < 8)
		return bits == 8 ? gpr[0][reg] : bits == 16 ? gpr[1][reg] : bits == 32 ? gpr[2][reg] : NULL;
	if (file == FVEC && reg >= 0 && reg < 8 && bits == 128)
		return xmm[reg];
	return NULL;
}

static const int gorder[] = {EAX, ECX, EDX, ESI, EDI, EBX, EBP, ESP};
static const int vorder[] = {0, 1, 2, 3, 4, 5, 6, 7};
static const char *const ext[] = {"mmx", "sse2", "ssse3", "cmov", 0};
static const u64 implies[] = {[YSSE2] = 1ull << YMMX, [YSSSE3] = 1ull << YSSE2, [YCMOV] = 0, [YCMOV + 1] = 0};

#define GALL (0xffull & ~(1ull << ESP))
#define BYTEREGS 0x0full /* al, cl, dl, bl */
#define T(x) (1u << (x))
static const Class classes[] = {
	CLSREG("int32", FGPR, T(TINT32), GALL, 32),
	CLSREG("int32b", FGPR, T(TINT32), BYTEREGS, 32),
	CLSREG("reg128", FVEC, T(TREG128), 0xff, 128),
	CLSIMM("sh4", 0, 15),	/* 16-bit lane shifts */
	CLSIMM("sh5", 0, 31),
	CLSIMM("rot5", 1, 31),
	CLSIMM("uimm8", 0, 255),
	CLSIMM("imm32", INT32_MIN, UINT32_MAX),
	CLSMEM("mem8", 8, MANY, 0, 0, 0),
	CLSMEM("mem16", 16, MANY, 0, 0, 0),
	CLSMEM("mem32", 32, MANY, 0, 0, 0),
	CLSMEM("mem64", 64, MANY, 0, 0, 0),
	CLSMEM("mem128", 128, MANY, 0, 0, 0),
	CLSADDR("stack", T(TSTACK32) | T(TSTACK64) | T(TSTACK128) | T(TSTACK256) | T(TSTACK512)),
	CLSLABEL("label"),
};

/* cdecl: every argument on the stack */
static int argreg(int i, int type)
{
	if (type != TINT32)
		return -2;
	return i < 16 ? NOREG : -3;
}

static const int saveorder[] = {EBX, ESI, EDI, EBP};

static void memfmt(FILE *f, Fn *fn, const Opnd *o)
{
	switch (o->mkind) {
	case MBREG: {
		const char *sep = "";
		fputc('[', f);
		if (o->base >= 0) {
			fprintf(f, "%s", gpr[2][fn->tmp[o->base].reg]);
			sep = " + ";
		}
		if (o->index >= 0) {
			fprintf(f, "%s%s", sep, gpr[2][fn->tmp[o->index].reg]);
			if (o->scale != 1)
				fprintf(f, "*%d", o->scale);
		}
		if (o->disp > 0)
			fprintf(f, " + %lld", o->disp);
		else if (o->disp < 0)
			fprintf(f, " - %llu", -(unsigned long long)o->disp);
		fputc(']', f);
		return;
	}
	case MBSTACK:
		fprintf(f, "[esp + %lld]", fn->varoff[o->obj] + o->disp);
		return;
	case MBSPILL:
		fprintf(f, "[esp + %d]", fn->slot[o->obj].off);
		return;
	case MBARG:
		/* above the frame, the pushes and the return address */
		fprintf(f, "[esp + %d]", fn->framesize + 4 * fn->pushes + 4 + 4 * o->obj);
		return;
	case MBSYM:
		if (o->disp)
			fprintf(f, "[%s + %lld]", consts[o->obj].name, o->disp);
		else
			fprintf(f, "[%s]", consts[o->obj].name);
		return;
	}
	die("x86: memory operand kind %d", o->mkind);
}

static void layout(Fn *fn)
{
	fn->pushes = popcnt(fn->usedregs[FGPR] & T_x86.callee[FGPR]);
	int size = fn->framesize;
	if (size) {
		/* entry esp = 12 mod 16 (Linux i386); keep esp 16-aligned after the frame */
		size = (size + 15) & -16;
		size += (16 - ((4 + 4 * fn->pushes + size) & 15)) & 15;
	}
	fn->framesize = size;
}

static void prologue(FILE *f, Fn *fn)
{
	for (int i = 0; i < 4; i++)
		if (fn->usedregs[FGPR] >> saveorder[i] & 1)
			fprintf(f, "\tpush %s\n", gpr[2][saveorder[i]]);
	if (fn->framesize)
		fprintf(f, "\tsub esp, %d\n", fn->framesize);
}

static void epilogue(FILE *f, Fn *fn)
{
	if (fn->framesize)
		fprintf(f, "\tadd esp, %d\n", fn->framesize);
	for (int i = 3; i >= 0; i--)
		if (fn->usedregs[FGPR] >> saveorder[i] & 1)
			fprintf(f, "\tpop %s\n", gpr[2][saveorder[i]]);
	fprintf(f, "\tret\n");
}


const Target T_x86 = {
	.name = "x86",
	.md = x86_md,
	.dialect = &D_nasm32,
	.cls = classes,
	.ncls = sizeof classes / sizeof classes[0],
	.nreg = {8, 8, 0},
	.order = {gorder, vorder, NULL},
	.callee = {(1ull << EBX) | (1ull << ESI) | (1ull << EDI) | (1ull << EBP), 0, 0},
	.extname = ext,
	.implies = implies,
	.baseext = 0,
	.addrtype = TINT32,
	.spbytes = 4,
	.argreg = argreg,
	.retreg = EAX,
	.regview = regview,
	.memfmt = memfmt,
	.prologue = prologue,
	.epilogue = epilogue,
	.layout = layout,
};
