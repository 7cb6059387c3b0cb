#! target sparc64
#! model -
#! data 81fffffffffffffffeffffffffffffff80ffffffffffffff1871491041b92986008000000000000006ba4f7765618468ffffffff0000000000000000ffffffff00000080000000008000000000000000020000000000000001ffffffffffffff7b6c57a6c958e8ac0080fffffffffffffeffffff00000000ffffffff00000000ffffff7f000000009eab4b0da32910480000000000000080ff7f00000000000000800000000000005d228ae686d724dafeffffff000000000000000001000000010000000000000002000000ffffffffb0f3bfbf673640ad12740f2dd0050dcd544bf832b755ef4b21ef0c87196221489c0d5a388df75b1149b157de5b3fba4b
# found by gen/qdiff.py (seed 3): q[80] = 0xff, reference 0x00.  The (uint32)
# rotate on an int64 left garbage in the upper half (V9 sll shifts all 64
# bits); qhasm/sparc/sparc64.md now ends it with srl r, 0, r.
int64 i64_0 i64_4 i64_6
int64 p q rv
enter fr_3
input p q
  i64_0 = mem64[p + 0]
  i64_6 = mem64[p + 96]
  ( uint32 ) i64_4 = i64_6 <<< 31
  mem64[q + 80] = i64_4
  rv = i64_0
output rv
leave
