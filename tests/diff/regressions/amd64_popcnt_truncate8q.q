#! target amd64
#! model -
# vpopcntq (`8x r = popcount(s)`, AVX512_VPOPCNTDQ) and vpmovqb
# (`r = truncate8q(s)`: each qword's low byte in bytes 0-7, the rest of the
# ymm zero), as the AVX-512 syndrome's parity byte uses them (issue 16):
# counts 0 and 64 (all-zero and all-one qwords), random qwords, a count
# shifted to bit 7 of the low byte and gathered by vpmovmskb, truncate8q of
# qwords whose upper bytes are set (the result's bytes 8-31 must be zero
# even when the destination held ones).  Runs on the CPU (AVX-512).
cpu avx2 avx512f avx512vpopcntdq
reg512 a b c z
reg256 g h
int64 p q o rv
enter popcnttrunc_0
input p q
a = mem512[p + 0]
b = mem512[p + 64]
z = 0
c = a ^ z
c = ternlog(c, b, z, 0xff)
8x b = popcount(a)
mem512[q + 0] = b
8x c = popcount(c)
mem512[q + 64] = c
8x z = popcount(z)
mem512[q + 128] = z
g = mem256[p + 128]
g = truncate8q(a)
mem256[q + 192] = g
h = mem256[p + 160]
h = truncate8q(b)
mem256[q + 224] = h
8x b = b << 7
g = truncate8q(b)
o = movemask8(g)
mem64[q + 256] = o
rv = mem64[q + 200]
output rv
leave
