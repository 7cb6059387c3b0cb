#! target amd64
#! driver forms.c
# Integer forms that every target having the type accepts (issue 13: one
# language on every target), each computed at edge values and checked
# against C by the driver forms.c.  The same program on every target
# (tests/run/forms_*.q differ only in the target line, the pointer type,
# and the int64 part where the target has int64).
int64 p a b k r t q
stack64 s0
int32 a32 b32 k32 r32 t32

enter forms32
input p
a32 = mem32[p + 0]
b32 = mem32[p + 4]
k32 = mem32[p + 8]
# 0: r = - a
r32 = - a32
mem32[p + 16] = r32
# 1: r = ~ a & b
r32 = ~ a32 & b32
mem32[p + 20] = r32
# 2: r = a * 7
r32 = a32 * 7
mem32[p + 24] = r32
# 3: (int32) r = a >> 5
(int32) r32 = a32 >> 5
mem32[p + 28] = r32
# 4: r = a << k
r32 = a32 << k32
mem32[p + 32] = r32
# 5: r = a >> k
r32 = a32 >> k32
mem32[p + 36] = r32
# 6: (int32) r = a >> k
(int32) r32 = a32 >> k32
mem32[p + 40] = r32
# 7: r = a <<< 7
r32 = a32 <<< 7
mem32[p + 44] = r32
# 8: r = a >>> 7
r32 = a32 >>> 7
mem32[p + 48] = r32
# 9: r = a <<< k
r32 = a32 <<< k32
mem32[p + 52] = r32
# 10: r = a >>> k
r32 = a32 >>> k32
mem32[p + 56] = r32
# 11: (int32) r = mem16[p + 12]
(int32) r32 = mem16[p + 12]
mem32[p + 60] = r32
# 12: (int32) r = mem8[p + 14]
(int32) r32 = mem8[p + 14]
mem32[p + 64] = r32
# 13: r = mem16[p + 12]
r32 = mem16[p + 12]
mem32[p + 68] = r32
# 14: r = mem8[p + 14]
r32 = mem8[p + 14]
mem32[p + 72] = r32
# 15: (uint64) r t = a * b
(uint64) r32 t32 = a32 * b32
r32 ^= t32
mem32[p + 76] = r32
# 16: (int64) r t = a * b
(int64) r32 t32 = a32 * b32
r32 += t32
mem32[p + 80] = r32
# 17: r = a + 100
r32 = a32 + 100
mem32[p + 84] = r32
# 18: r = a - 100
r32 = a32 - 100
mem32[p + 88] = r32
# 19: r = a & 0x7f0
r32 = a32 & 0x7f0
mem32[p + 92] = r32
# 20: r = a | 0x123
r32 = a32 | 0x123
mem32[p + 96] = r32
# 21: r = a ^ 0x456
r32 = a32 ^ 0x456
mem32[p + 100] = r32
# 22: r = a * b
r32 = a32 * b32
mem32[p + 104] = r32
# 23: carry? r = a - b
carry? r32 = a32 - b32
t32 = b32 - a32 - carry
r32 ^= t32
mem32[p + 108] = r32
# 24: r = 0
r32 = 0
=? t32 = a32 & b32
goto z32_1 if !=
r32 = 1
z32_1:
mem32[p + 112] = r32
# 25: r = 0
r32 = 0
=? t32 = a32 | b32
goto z32_2 if !=
r32 = 1
z32_2:
mem32[p + 116] = r32
# 26: r = 0
r32 = 0
=? a32 & 0x300
goto z32_3 if !=
r32 = 1
z32_3:
mem32[p + 120] = r32
mem16[p + 124] = a32
leave

enter forms64
input p
a = mem64[p + 0]
b = mem64[p + 8]
k = mem64[p + 16]
# 0: r = - a
r = - a
mem64[p + 32] = r
# 1: r = ~ a & b
r = ~ a & b
mem64[p + 40] = r
# 2: r = a * 7
r = a * 7
mem64[p + 48] = r
# 3: (int64) r = a >> 5
(int64) r = a >> 5
mem64[p + 56] = r
# 4: r = a << k
r = a << k
mem64[p + 64] = r
# 5: r = a >> k
r = a >> k
mem64[p + 72] = r
# 6: (int64) r = a >> k
(int64) r = a >> k
mem64[p + 80] = r
# 7: r = a <<< 7
r = a <<< 7
mem64[p + 88] = r
# 8: r = a >>> 7
r = a >>> 7
mem64[p + 96] = r
# 9: r = a <<< k
r = a <<< k
mem64[p + 104] = r
# 10: r = a >>> k
r = a >>> k
mem64[p + 112] = r
# 11: (int64) r = mem32[p + 24]
(int64) r = mem32[p + 24]
mem64[p + 120] = r
# 12: (int64) r = mem16[p + 28]
(int64) r = mem16[p + 28]
mem64[p + 128] = r
# 13: (int64) r = mem8[p + 30]
(int64) r = mem8[p + 30]
mem64[p + 136] = r
# 14: r = mem16[p + 28]
r = mem16[p + 28]
mem64[p + 144] = r
# 15: (uint32) r = a
(uint32) r = a
mem64[p + 152] = r
# 16: (uint32) r = a + 100
(uint32) r = a + 100
mem64[p + 160] = r
# 17: (uint32) r = a - b
(uint32) r = a - b
mem64[p + 168] = r
# 18: (uint32) r = a - 100
(uint32) r = a - 100
mem64[p + 176] = r
# 19: (uint32) r = a & b
(uint32) r = a & b
mem64[p + 184] = r
# 20: (uint32) r = a & 0x7f0
(uint32) r = a & 0x7f0
mem64[p + 192] = r
# 21: (uint32) r = a | b
(uint32) r = a | b
mem64[p + 200] = r
# 22: (uint32) r = a | 0x123
(uint32) r = a | 0x123
mem64[p + 208] = r
# 23: (uint32) r = a ^ b
(uint32) r = a ^ b
mem64[p + 216] = r
# 24: (uint32) r = a ^ 0x456
(uint32) r = a ^ 0x456
mem64[p + 224] = r
# 25: (uint32) r = a << 5
(uint32) r = a << 5
mem64[p + 232] = r
# 26: (uint32) r = a >> 5
(uint32) r = a >> 5
mem64[p + 240] = r
# 27: (uint32) r = a <<< 7
(uint32) r = a <<< 7
mem64[p + 248] = r
# 28: (uint32) r = a >>> 7
(uint32) r = a >>> 7
mem64[p + 256] = r
# 29: (uint32) r = a * b
(uint32) r = a * b
mem64[p + 264] = r
# 30: carry? (uint32) r = a + b
carry? (uint32) r = a + b
(uint32) t = b + a + carry
r <<= 32
r |= t
mem64[p + 272] = r
# 31: r = 0
r = 0
=? t = a + b
goto z64_1 if !=
r = 1
z64_1:
mem64[p + 280] = r
# 32: r = 0
r = 0
=? t = a - b
goto z64_2 if !=
r = 1
z64_2:
mem64[p + 288] = r
# 33: r = 0
r = 0
=? t = a ^ b
goto z64_3 if !=
r = 1
z64_3:
mem64[p + 296] = r
# 34: r = 0
r = 0
=? a & b
goto z64_4 if !=
r = 1
z64_4:
mem64[p + 304] = r
# 35: r = 0
r = 0
=? a & 0x300
goto z64_5 if !=
r = 1
z64_5:
mem64[p + 312] = r
# 36: r = 0
r = 0
unsigned<? a - b
goto z64_6 if unsigned>=
r = 1
z64_6:
mem64[p + 320] = r
# 37: r = 0
r = 0
signed<? a - -7
goto z64_7 if signed>=
r = 1
z64_7:
mem64[p + 328] = r
# the address of a stack variable: what `s0 = b` stored, read through it
s0 = b
q = &s0
r = mem64[q + 0]
mem64[p + 336] = r
mem16[p + 344] = a
leave
