#! target amd64
# vbroadcasti64x4 (issue 17, the AVX-512 bitsliced R/3 product): a 256-bit
# value from memory in both halves of a zmm.  Each half is stored and read
# back; a line that loaded 512 bits (vmovdqu64) or broadcast a 128-bit
# block would make the upper half differ.
cpu avx512f
int64 p q rv x y
reg512 z
enter broadcast256_0
input p q
2x z = mem256[p + 8]
mem512[q + 0] = z
x = mem64[q + 32]
y = mem64[q + 56]
rv = x ^ y
x = mem64[q + 8]
rv = rv + x
output rv
leave
