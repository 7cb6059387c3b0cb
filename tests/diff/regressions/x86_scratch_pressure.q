#! target x86
#! model -
# found by gen/qdiff.py (seed 8, x86, no cmov; its loop made to end: `=? lc
# -= 1` for `=? lc - 0`, which still failed): qhasm rejected this valid
# program with
#   error: too many values must be in registers at once here: the fixed and
#   scratch registers of this instruction cannot be satisfied
# at the emulated conditional move (two scratch registers, one a byte
# register) while the mul pins edx:eax and the rotate needs ecx: the spilled
# class joined to eax by the mul gave its reload temporaries eax alone.
# Fixed in qhasm/alloc.c (as amd64_fixed_rcx_pressure.q).
int32 i32_0 i32_1 i32_2 i32_3 i32_4 i32_5 i32_6 i32_7 i32_8 i32_9 i32_10 i32_11
reg128 r128_0 r128_1 r128_2 r128_3 r128_4 r128_5
int32 p q pa ix0 ix1 ix2 ix3 lc cnt rv
stack32 stack32_0 stack32_1
stack64 stack64_0 stack64_1 stack64_2
stack128 stack128_0
stack256 stack256_0
stack64 arr[8]
const K u32 0 1 0x7fffffff 0x80000000 0xffffffff 0xfffffffe 3 0x12345678 0xdeadbeef 0x80000001 5 7 0x01000000 0x00ff00ff 0xff00ff00 9
enter f8_4
input p q
  i32_0 = mem32[p + 0]
  i32_5 = mem32[p + 40]
  i32_6 = mem32[p + 48]
  lc = 3
  i32_2 = i32_5 * -2147483648
  pa = & mem8[p + 192]
  i32_11 = mem32[pa + 0]
L2:
  =? lc -= 1
  goto L2 if !=
L4:
L3:
  ( uint64 ) i32_10 i32_9 = i32_6 * i32_2
  signed<=? i32_4 = ~ i32_6 & i32_0
  i32_4 = i32_6 if signed <
  i32_11 <<<= i32_10
  mem32[q + 36] = i32_9
  mem32[q + 40] = i32_10
  rv = i32_0
output rv
leave
