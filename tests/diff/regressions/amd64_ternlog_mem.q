#! target amd64
#! model -
# The ternlog form with a memory operand (issue 16: vpternlogd r, s, m512,
# the AVX-512 syndrome's acc ^= e' & key word): the memory operand is the
# third input (bit = i >> (4r + 2s + m) & 1), unaligned addresses, a line
# stored before it is read, immediates 0x78 (r ^ (s & m)), 0x96 (three-way
# xor), 0xe8 (majority), 0xca (select), 0x00 and 0xff, and a loop that
# accumulates as the syndrome does.  Runs on the CPU (AVX-512).
cpu avx512f
reg512 a b c d
int64 p q i rv
enter ternlogmem_0
input p q
a = mem512[p + 0]
b = mem512[p + 64]
c = a
c = ternlog(c, b, mem512[p + 128], 0x78)
mem512[q + 0] = c
d = b
d = ternlog(d, a, mem512[p + 3], 0x96)
mem512[q + 64] = d
mem512[q + 128] = a
d = ternlog(d, c, mem512[q + 128], 0xe8)
mem512[q + 192] = d
c = ternlog(c, d, mem512[p + 191], 0xca)
a = ternlog(a, b, mem512[p + 17], 0x00)
b = ternlog(b, a, mem512[p + 33], 0xff)
c = c ^ a
c = c ^ b
i = 4
d = mem512[p + 20]
loop:
  d = ternlog(d, c, mem512[p + 44], 0x78)
  c = ternlog(c, d, mem512[q + 1], 0x78)
  i = i - 1
  =? i - 0
  goto loop if !=
mem512[q + 1] = c
mem512[q + 100] = d
rv = mem64[q + 104]
output rv
leave
