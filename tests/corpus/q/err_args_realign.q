#! error 6:7: 'f': inputs beyond the sixth (on the stack) need a frame aligned to at most 16 bytes, and this one has 32-byte aligned stack data
cpu avx2
int64 a b c d e f g
stack256 s
reg256 y
enter f
input a b c d e f g
y = mem256[a]
s = y
y = s
mem256[g] = y
leave
