#! target sparc64
#! model -
#! data 0100ffffffffffff4010a5e1dd8f957bfc7c71f857bf6ff6feffffffffffffff3e32d2e72b2107c9d48963ccba1c41c9eb992ddbe6f674ce7f00000000000000800000000000000001000000000000800100ffffffffffff1286ee87c7cafbc8ffffffffffffff7f83cd902927ddb7ae0000000001000000ffffff7f000000003f6b2175c4112d820100000000000080ffffff7f00000000f62850746cd7754102000000ffffffff0100ffffffffffff2af9a73320ed6855ffffffff00000000ff00000000000000f3816f4c0422eb7b02e59119fb1f6caa6d76b539dceaa2b70000000000000080b5b8209d732e3e632eaf63167d6d360a0000000000000000
# found by gen/qdiff.py (seed 12167415): q[12] = 0x01, reference 0xff.
# 'i32_3 = i64_0' (int32 from int64) was marked 'mov', so when i32_3 was
# spilled the copy became a 64-bit stx into its 4-byte slot, reloaded by
# lduw: on big-endian, the HIGH half.  The conversion lines of
# qhasm/sparc/sparc64.md and qhasm/ppc/ppc64.md are no longer 'mov'.
int32 i32_1 i32_2 i32_3 i32_4 i32_7 i32_8 i32_9 i32_10 i32_11
int64 i64_0 i64_1 i64_2 i64_3 i64_4 i64_5 i64_6 i64_7 i64_8 i64_9 i64_10 i64_11 i64_12 i64_13
int64 p q rv
stack32 stack32_0
enter fr_0
input p q
  i32_1 = mem32[p + 8]
  i32_2 = mem32[p + 16]
  i32_4 = mem32[p + 32]
  i32_7 = mem32[p + 56]
  i32_8 = mem32[p + 64]
  i32_9 = mem32[p + 72]
  i64_0 = mem64[p + 0]
  i64_3 = mem64[p + 48]
  i64_4 = mem64[p + 64]
  i64_5 = mem64[p + 80]
  i64_6 = mem64[p + 96]
  i64_7 = mem64[p + 112]
  i64_8 = mem64[p + 128]
  i64_10 = mem64[p + 160]
  i64_11 = mem64[p + 176]
  i64_13 = mem64[p + 208]
  stack32_0 = i32_4
  i32_10 = mem32le[p + 16]
  i64_1 = i64_7 | -1242
  i64_2 = 1
  signed>? i64_1 - i64_11
  mem32le[p + 36] = i32_8
  i64_10 = i64_11 ^ i64_1
  i64_9 = i64_1 - i64_3
  goto L3 if signed>
  i32_9 = i32_7
L3:
  i32_3 = i64_0
  goto L5
  i32_10 = i32_2
L5:
  i64_0 = i64_9 - i64_5
  i32_11 = mem8[p + 71]
  i64_12 = i64_6 + 0
  signed>? i64_2 & i64_11
  goto L13 if signed<
  i32_1 = i64_1
  mem32le[p] = i64_13
  i64_4 = i64_13 & i64_9
L13:
  i64_1 = i64_4 ^ i64_2
  i64_9 = i64_8 * 2786
  mem32[q + 4] = i32_1
  mem32[q + 8] = i32_2
  mem32[q + 12] = i32_3
  mem32[q + 16] = i32_4
  mem32[q + 28] = i32_7
  mem32[q + 32] = i32_8
  mem32[q + 36] = i32_9
  mem32[q + 40] = i32_10
  mem32[q + 44] = i32_11
  mem64[q + 72] = i64_3
  mem64[q + 88] = i64_5
  mem64[q + 96] = i64_6
  mem64[q + 104] = i64_7
  mem64[q + 112] = i64_8
  mem64[q + 128] = i64_10
  rv = i64_0
output rv
leave
