#! target amd64
#! model zen3
#! data b9f0f691d574e402d184797105979aab489e0b70810a4e0eede997729eb984d72cb2fdd8589616902a03bf78fa4f9e9ba2ebe82154f606e3fb07f33ee828ff0b4976cfbd1016cca3f42474a3332f3e7c04c9173a18c94e827a5b057a7d3b354b89c6d013cfedeeeb85131e0f65da82c4346e3ad437913be9de48cc794043cedd73ca5eb9fd59d06ada0bf99b973f279cff7bf16be244fb2836a01dec29fe1aab5733bace90c8217261e86b060071aaca681c890bc51d4b7169890e6ff1f6b245eb5837610b2fbf92314f135f3c75b068df2e5d2dec28104d4e5069d515b53aced1843ec463b5e1bfdd08b062296cc4d21c6cd3ae16cfb20a4bd578a455cf1cc0
# The software prefetch of the syndrome kernels (issue 16): no effect on
# registers, flags or memory.  Prefetches of lines being loaded and stored,
# of an address outside the buffer (prefetcht0 never faults), with an index
# register kept live across them and a compare's flags read after one.
int64 p q rv x y i
enter prefetch_0
input p q
x = mem64[p + 0]
prefetch(mem8[p + 0])
y = mem64[p + 64]
prefetch(mem8[q + 64])
mem64[q + 64] = x
prefetch(mem8[p + 1048576])
i = 3
loop:
  prefetch(mem8[p + 128])
  x = x ^ y
  mem64[q + 8] = x
  i = i - 1
  =? i - 0
  prefetch(mem8[q + 192])
  goto loop if !=
y = mem64[q + 64]
rv = x + y
output rv
leave
