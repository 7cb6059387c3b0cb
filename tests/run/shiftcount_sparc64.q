#! target sparc64
#! driver shiftcount.c
# Shifts and rotates by a register take the count modulo the width on
# every target (PowerPC masks it first: slw/sld read one bit more);
# driver shiftcount.c checks counts 0..255
int32 a k r
enter shl32
input a k
r = a << k
output r
leave

enter shr32
input a k
r = a >> k
output r
leave

enter sar32
input a k
(int32) r = a >> k
output r
leave

enter rol32
input a k
r = a <<< k
output r
leave

enter ror32
input a k
r = a >>> k
output r
leave

int64 a6 k6 r6
enter shl64
input a6 k6
r6 = a6 << k6
output r6
leave

enter shr64
input a6 k6
r6 = a6 >> k6
output r6
leave

enter sar64
input a6 k6
(int64) r6 = a6 >> k6
output r6
leave

enter rol64
input a6 k6
r6 = a6 <<< k6
output r6
leave

enter ror64
input a6 k6
r6 = a6 >>> k6
output r6
leave
