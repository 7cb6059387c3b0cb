#! target amd64
#! model -
# The VEX.128 forms of amd64-djb.md (`r = m , 0`, `2x , 0 r = s >> i`, `1x , 0`):
# the operation on the low 128 bits, the upper half zero (issue 13).
cpu avx
reg256 a b c
int64 p q rv
enter lo_0
input p q
a = mem256[p + 0]
b = mem256[p + 32]
c = mem128[p + 64] , 0
mem256[q + 0] = c
2x , 0 c = a >> 7
mem256[q + 32] = c
2x , 0 c = b << 63
mem256[q + 64] = c
1x , 0 c = a ^ b
mem256[q + 96] = c
rv = 0
output rv
leave
