#! target amd64
#! model -
# found by gen/qdiff.py (amd64 seed 13472504, reduced; its loop made to end:
# `=? lc -= 1` for `=? lc - 0`, which still failed): qhasm rejected this
# valid program with
#   error: too many values must be in registers at once here: the fixed and
#   scratch registers of this instruction cannot be satisfied
# at the shld by cnt (fixed to rcx) with 14 live int64 values.  i64_5 and
# i64_7 (rotate counts) were joined to rcx and then spilled, and their
# reload temporaries kept the class's mask, rcx alone: the reload of i64_7
# for the shld's destination needed rcx while cnt did.  Fixed in
# qhasm/alloc.c: a spilled value's pieces take the registers of the
# operand they serve (usemask), a holder is reused only where it fits.
cpu sse4.1 popcnt
int32 i32_0 i32_1 i32_2 i32_3 i32_4 i32_5 i32_6 i32_7 i32_8 i32_9 i32_10 i32_11
int64 i64_0 i64_1 i64_2 i64_3 i64_4 i64_5 i64_6 i64_7 i64_8 i64_9 i64_10 i64_11 i64_12 i64_13
reg128 r128_0 r128_1 r128_2 r128_3 r128_4 r128_5
reg256 r256_0 r256_1 r256_2 r256_3
reg512 r512_0 r512_1 r512_2 r512_3
int64 p q pa ix0 ix1 ix2 ix3 lc cnt rv
int32 cnt32
stack32 stack32_0 stack32_1
stack64 stack64_0 stack64_1 stack64_2
stack128 stack128_0
stack256 stack256_0
stack64 arr[8]
const K u32 0 1 0x7fffffff 0x80000000 0xffffffff 0xfffffffe 3 0x12345678 0xdeadbeef 0x80000001 5 7 0x01000000 0x00ff00ff 0xff00ff00 9
enter f13472504_5
input p q
  i32_1 = mem32[p + 8]
  i32_3 = mem32[p + 24]
  i64_0 = mem64[p + 0]
  i64_1 = mem64[p + 16]
  i64_2 = mem64[p + 32]
  i64_4 = mem64[p + 64]
  i64_5 = mem64[p + 80]
  i64_6 = mem64[p + 96]
  i64_7 = mem64[p + 112]
  i64_9 = mem64[p + 144]
  i64_10 = mem64[p + 160]
  i64_11 = mem64[p + 176]
  i64_12 = mem64[p + 192]
  i64_13 = mem64[p + 208]
  i64_12 >>>= i64_5
  lc = 2
L1:
  =? lc -= 1
  goto L1 if !=
  !=? i64_1 |= 32
  pa = & mem8[p + 248]
  mem64[pa + 0] = i64_4
  signed<=? ( uint32 ) i64_6 &= i64_9
  i32_1 = i32_3 if signed >=
  i64_10 <<<= i64_7
  !=? i64_2 &= mem64[p + 0]
  goto L6 if =
  cnt = 63
  i64_7 = shld ( i64_7 , i64_13 , cnt )
  i32_1 = i64_11
L6:
  mem32[q + 4] = i32_1
  mem64[q + 56] = i64_1
  mem64[q + 64] = i64_2
  mem64[q + 80] = i64_4
  mem64[q + 88] = i64_5
  mem64[q + 96] = i64_6
  mem64[q + 120] = i64_9
  mem64[q + 128] = i64_10
  mem64[q + 136] = i64_11
  mem64[q + 144] = i64_12
  mem64[q + 152] = i64_13
  rv = i64_0
output rv
leave
