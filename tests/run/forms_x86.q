#! target x86
#! driver forms.c
# Integer forms that every target having the type accepts (issue 13: one
# language on every target), each computed at edge values and checked
# against C by the driver forms.c.  The same program on every target
# (tests/run/forms_*.q differ only in the target line, the pointer type,
# and the int64 part where the target has int64).
int32 p
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
