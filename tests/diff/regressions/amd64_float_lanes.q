#! target amd64
#! model -
#! data 000000000000f83f9a9999999999d9bf00000000000004409a999999999905c000000000000000000000000000000080000000000000f07f000000000000f0ffa0c8eb85f3cce17f0000000000000c402be6708b681200800000000000001c40000000000000e03f000000000000e0bf000000000000f03f00000000000040430100000000f07f000100000000f07f00000000000000f8ffffffffffffffffff000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
# The double-precision lane forms of amd64-djb.md (issue 13: every md line has
# a semantics): IEEE results, NaN operands quieted, 0*inf the default NaN,
# fround ties to even keeping the sign of zero; checked on the CPU.
cpu avx
reg256 a b c d e
reg128 x y z
int64 p q rv
enter fp_0
input p q
a = mem256[p + 0]
b = mem256[p + 32]
c = mem256[p + 64]
d = mem256[p + 128]
4x e = fmul(a, b)
mem256[q + 0] = e
4x e = fadd(a, c)
mem256[q + 32] = e
4x e = fsub(b, d)
mem256[q + 64] = e
4x e = fround(a)
mem256[q + 96] = e
4x e = ftrunc(b)
mem256[q + 128] = e
4x e = fround(d)
mem256[q + 160] = e
4x e = fmul(d, a)
mem256[q + 192] = e
4x e = fadd(d, mem256[p + 96])
mem256[q + 224] = e
x = mem128[p + 16]
y = mem128[p + 128]
2x z = fsub(x, y)
mem128[q + 256] = z
4x e = fmul(c, mem256[p + 128])
mem256[q + 288] = e
rv = 0
output rv
leave
