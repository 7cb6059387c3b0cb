#! target x86
#! model pentium3
#! data 80ffffffffffffff0100ffffffffffffffffffffffffff7f80ffffffffffffffb14e949a48f94cfca47d838224d94b40a122cda2ab50ef33010000000000000000000000000000007e6531e035abd25e7cba52816faebd38908b588fdf5bc1d88f3e3b361dadf69fffffff7f00000000ffffff7f000000000100000000000080e5b0f4b0d0de7d70dd51402f2556364bff7f000000000000cf8fc26ebc2dffe2a38d342554093868bf3a5c8e03a6efec0100000000000080ffffffffffffffff666967d8217da72e479700738529085fffffffffffffffffc07ebfbeaad19353e237059482e07b2971fef8e13b5180a7ff000000000000000200000000000000
# found by gen/qdiff.py (x86 seed 1 -u pentium3): q[8] = 0x62, reference 0xff.
# The scheduler moved the load through pa = &stack32_1 above the store to
# stack32_1: it took the frame to be unreachable through pointers.
# Fixed in qhasm/schedule.c (address-taken stack variables may alias).
cpu cmov
int32 i32_0 i32_1 i32_2 i32_5 i32_8 i32_9 i32_10 i32_11
int32 p q pa rv
stack32 stack32_1
enter fr_0
input p q
  i32_0 = mem32[p + 0]
  i32_1 = mem32[p + 8]
  i32_5 = mem32[p + 40]
  i32_8 = mem32[p + 64]
  i32_9 = mem32[p + 72]
  i32_10 = mem32[p + 80]
  i32_11 = mem32[p + 88]
  stack32_1 = i32_9
  i32_5 - i32_11
  =? i32_5 <<= 31
  i32_8 = i32_1 if =
  pa = & stack32_1
  i32_2 = mem32[pa + 0]
  mem32[q + 8] = i32_2
  rv = i32_0
output rv
leave
