/* amd64/target.c: the amd64 Target: registers and their names, operand
 * classes used by amd64.md, the System V ABI (arguments, return value,
 * callee-saved registers, stack alignment), frame layout, prologue and
 * epilogue, and NASM's syntax for memory operands. */
#include "../all.h"
#include "amd64.h"

static const char *const gpr[4][16] = {
	{"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"},
	{"ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"},
	{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"},
	{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"},
};
static char vecname[3][32][6];

static const char *regview(int file, int reg, int bits)
{
	if (file == FGPR) {
		if (reg < 0 || reg >= 16)
			return NULL;
		switch (bits) {
		case 8: return gpr[0][reg];
		case 16: return gpr[1][reg];
		case 32: return gpr[2][reg];
		case 64: return gpr[3][reg];
		}
		return NULL;
	}
	if (file == FVEC && reg >= 0 && reg < 32) {
		int v = bits == 128 ? 0 : bits == 256 ? 1 : bits == 512 ? 2 : -1;
		if (v < 0)
			return NULL;
		if (!vecname[v][reg][0])
			snprintf(vecname[v][reg], 6, "%cmm%d", "xyz"[v], reg);
		return vecname[v][reg];
	}
	return NULL;
}

static const int gorder[] = {R8, R9, R10, R11, RSI, RDI, RAX, RCX, RDX, RBX, RBP, R12, R13, R14, R15, RSP};
static const int vorder[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const char *const ext[] = {"sse2", "sse3", "ssse3", "sse4.1", "popcnt", "avx", "avx2", "bmi1", "bmi2", "adx",
	"avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512ifma", "avx512vbmi", "pclmulqdq", "avx512vpopcntdq", 0};

#define B(x) (1ull << (x))
static const u64 implies[] = {
	[XSSE3] = B(XSSE2), [XSSSE3] = B(XSSE3), [XSSE41] = B(XSSSE3), [XAVX] = B(XSSE41) | B(XPOPCNT),
	[XAVX2] = B(XAVX), [XADX] = 0, [XAVX512F] = B(XAVX2), [XAVX512VL] = B(XAVX512F),
	[XAVX512BW] = B(XAVX512F), [XAVX512DQ] = B(XAVX512F), [XAVX512IFMA] = B(XAVX512F),
	[XAVX512VBMI] = B(XAVX512F), [XPCLMULQDQ] = B(XSSE2), [XAVX512VPOPCNTDQ] = B(XAVX512F), [XAVX512VPOPCNTDQ + 1] = 0,
};

#define GALL (0xffffull & ~(1ull << RSP))
#define T(x) (1u << (x))
static const Class classes[] = {
	CLSREG("int64", FGPR, T(TINT64), GALL, 64),
	CLSREG("int32", FGPR, T(TINT32), GALL, 32),
	CLSREG("reg128", FVEC, T(TREG128), 0xffff, 128),
	CLSREG("reg128x", FVEC, T(TREG128), 0xffffffffull, 128),
	CLSREG("reg256", FVEC, T(TREG256), 0xffff, 256),
	CLSREG("reg256x", FVEC, T(TREG256), 0xffffffffull, 256),
	CLSREG("reg512", FVEC, T(TREG512), 0xffffffffull, 512),
	CLSIMM("imm8", -128, 127),
	CLSIMM("uimm8", 0, 255),
	CLSIMM("sh4", 0, 15),
	CLSIMM("sh5", 0, 31),
	CLSIMM("sh6", 0, 63),
	CLSIMM("rot5", 1, 31),
	CLSIMM("rot6", 1, 63),
	CLSIMM("imm32", INT32_MIN, INT32_MAX),
	CLSIMM("imm32u", INT32_MIN, UINT32_MAX),
	CLSIMM("imm64", INT64_MIN, INT64_MAX),
	CLSMEM("mem8", 8, MANY, 0, 0, 0),
	CLSMEM("mem16", 16, MANY, 0, 0, 0),
	CLSMEM("mem32", 32, MANY, 0, 0, 0),
	CLSMEM("mem64", 64, MANY, 0, 0, 0),
	CLSMEM("mem128", 128, MANY, 0, 0, 0),
	CLSMEM("mem256", 256, MANY, 0, 0, 0),
	CLSMEM("mem512", 512, MANY, 0, 0, 0),
	CLSMEM("mem64be", 64, MANY, 0, 0, 'b'),   /* big-endian data (SHA-512): mov + bswap */
	CLSADDR("stack", T(TSTACK32) | T(TSTACK64) | T(TSTACK128) | T(TSTACK256) | T(TSTACK512)),
	CLSLABEL("label"),
};

/* System V: integer arguments in rdi, rsi, rdx, rcx, r8, r9, then on the
 * stack (NOREG: loaded from there, see MBARG) */
static int argreg(int i, int type)
{
	static const int r[] = {RDI, RSI, RDX, RCX, R8, R9};
	if (type != TINT64 && type != TINT32)
		return -2;
	return i < 6 ? r[i] : i < 64 ? NOREG : -3;
}

static void memfmt(FILE *f, Fn *fn, const Opnd *o)
{
	switch (o->mkind) {
	case MBREG: {
		const char *sep = "";
		fputc('[', f);
		if (o->base >= 0) {
			fprintf(f, "%s", regview(FGPR, fn->tmp[o->base].reg, 64));
			sep = " + ";
		}
		if (o->index >= 0) {
			fprintf(f, "%s%s", sep, regview(FGPR, fn->tmp[o->index].reg, 64));
			if (o->scale != 1)
				fprintf(f, "*%d", o->scale);
			sep = " + ";
		}
		if (o->disp > 0)
			fprintf(f, " + %lld", o->disp);
		else if (o->disp < 0)
			fprintf(f, " - %llu", -(unsigned long long)o->disp);
		fputc(']', f);
		return;
	}
	case MBSTACK:
		fprintf(f, "[rsp + %lld]", fn->varoff[o->obj] + o->disp);
		return;
	case MBSPILL:
		fprintf(f, "[rsp + %d]", fn->slot[o->obj].off);
		return;
	case MBARG:
		/* arguments 7, 8, ...: above the frame, the pushes and the return address */
		fprintf(f, "[rsp + %d]", fn->framesize + 8 * fn->pushes + 8 + 8 * (o->obj - 6));
		return;
	case MBSYM:
		if (o->disp)
			fprintf(f, "[rel %s + %lld]", consts[o->obj].name, o->disp);
		else
			fprintf(f, "[rel %s]", consts[o->obj].name);
		return;
	}
	die("amd64: memory operand kind %d", o->mkind);
}

static const int saveorder[] = {RBX, RBP, R12, R13, R14, R15};

/* Frame: [pushed callee-saved][locals, aligned]; rsp is realigned with
 * `and` when locals need more than 16-byte alignment, the entry rsp then
 * kept in a local slot. */
static void layout(Fn *fn)
{
	fn->pushes = popcnt(fn->usedregs[FGPR] & T_amd64.callee[FGPR]);
	int align = 16;
	for (int i = 0; i < fn->nslot; i++)
		if (fn->slot[i].align > align)
			align = fn->slot[i].align;
	for (int v = 0; v < nvars; v++)
		if (fn->varoff[v] >= 0 && vars[v].align > align)
			align = vars[v].align;
	int size = fn->framesize;
	fn->realign = 0;
	if (align > 16 && size) {
		if (fn->ninput > 6)
			err(fn->pos, "'%s': inputs beyond the sixth (on the stack) need a frame aligned to at most 16 bytes, and this one has %d-byte aligned stack data",
			    fn->name, align);
		fn->realign = align;
		fn->saved_sp_off = size;
		size += 8;
		size = (size + align - 1) & -align;
	} else if (size) {
		/* entry rsp = 8 mod 16; keep rsp 16-aligned after the frame */
		int mis = (8 + 8 * fn->pushes) & 15;
		size = ((size + 15) & -16) + (mis ? 8 : 0);
	}
	fn->framesize = size;
}

static void prologue(FILE *f, Fn *fn)
{
	for (int i = 0; i < 6; i++)
		if (fn->usedregs[FGPR] >> saveorder[i] & 1)
			fprintf(f, "\tpush %s\n", gpr[3][saveorder[i]]);
	if (fn->realign) {
		fprintf(f, "\tmov r11, rsp\n\tsub rsp, %d\n\tand rsp, -%d\n\tmov [rsp + %d], r11\n", fn->framesize,
			fn->realign, fn->saved_sp_off);
	} else if (fn->framesize)
		fprintf(f, "\tsub rsp, %d\n", fn->framesize);
}

static void epilogue(FILE *f, Fn *fn)
{
	if (fn->used_ext & ((1ull << XAVX) | (1ull << XAVX2) | (1ull << XAVX512F)))
		fprintf(f, "\tvzeroupper\n");
	if (fn->realign)
		fprintf(f, "\tmov rsp, [rsp + %d]\n", fn->saved_sp_off);
	else if (fn->framesize)
		fprintf(f, "\tadd rsp, %d\n", fn->framesize);
	for (int i = 5; i >= 0; i--)
		if (fn->usedregs[FGPR] >> saveorder[i] & 1)
			fprintf(f, "\tpop %s\n", gpr[3][saveorder[i]]);
	fprintf(f, "\tret\n");
}


const Target T_amd64 = {
	.name = "amd64",
	.md = amd64_md,
	.dialect = &D_nasm,
	.cls = classes,
	.ncls = sizeof classes / sizeof classes[0],
	.nreg = {16, 32, 0},
	.order = {gorder, vorder, NULL},
	.callee = {(1ull << RBX) | (1ull << RBP) | (1ull << R12) | (1ull << R13) | (1ull << R14) | (1ull << R15), 0, 0},
	.regext = {0, 0xffff0000ull, 0},
	.regextbit = 1ull << XAVX512F,
	.extname = ext,
	.implies = implies,
	.baseext = 1ull << XSSE2,
	.addrtype = TINT64,
	.spbytes = 8,
	.argreg = argreg,
	.retreg = RAX,
	.regview = regview,
	.memfmt = memfmt,
	.prologue = prologue,
	.epilogue = epilogue,
	.layout = layout,
};
