#! target amd64
#! model -
# Memory-destination forms (issue 14): add/sub of an immediate and
# add/sub/xor of a register into mem64 and mem32 (int64: 64-bit; int32
# counters: 32-bit, the upper half of the word untouched), their flags
# (a stack64 and a stack32 counter decremented in place, the branches and a
# carry read after the memory form), and a loop with 17 live values whose
# counter split.c leaves in its slot (`sub qword [slot], 1`, alloc.c's fold).
int64 p q rv s t x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 i
stack64 c
stack32 d
int32 w
enter memrmw_0
input p q
s = mem64[p + 0]
t = mem64[p + 8]
mem64[q + 0] = s
mem64[q + 8] = t
mem64[q + 0] += 0x7fffffff
mem64[q + 8] -= s
mem64[q + 16] ^= t
mem64[q + 24] += t
mem64[q + 32] -= -5
mem32[q + 40] += 0x80000001
mem32[q + 44] -= 7
c = 3
d = 2
again:
mem64[q + 48] += s
unsigned>? c -= 1
goto again if unsigned>
again32:
mem64[q + 56] ^= t
unsigned>? d -= 1
goto again32 if unsigned>
carry? mem64[p + 16] += 0x7fffffff
rv = 0
rv += 0 + carry
w = d
s = w
t = c
rv += t
rv <<= 8
rv += s
x0 = mem64[p + 24]
x1 = mem64[p + 32]
x2 = mem64[p + 40]
x3 = mem64[p + 48]
x4 = mem64[p + 56]
x5 = mem64[p + 64]
x6 = mem64[p + 72]
x7 = mem64[p + 80]
x8 = mem64[p + 88]
x9 = mem64[p + 96]
x10 = mem64[p + 104]
x11 = mem64[p + 112]
x12 = mem64[p + 120]
x13 = mem64[p + 0]
x14 = mem64[p + 8]
i = 5
loop:
x0 += x1
x1 ^= x2
x2 += x3
x3 ^= x4
x4 += x5
x5 ^= x6
x6 += x7
x7 ^= x8
x8 += x9
x9 ^= x10
x10 += x11
x11 ^= x12
x12 += x13
x13 ^= x14
x14 += x0
unsigned>? i -= 1
goto loop if unsigned>
mem64[q + 64] = x0
mem64[q + 72] = x1
mem64[q + 80] = x2
mem64[q + 88] = x3
mem64[q + 96] = x4
mem64[q + 104] = x5
mem64[q + 112] = x6
mem64[q + 120] = x7
mem64[q + 128] = x8
mem64[q + 136] = x9
mem64[q + 144] = x10
mem64[q + 152] = x11
mem64[q + 160] = x12
mem64[q + 168] = x13
mem64[q + 176] = x14
mem64[q + 184] = i
rv += i
output rv
leave
