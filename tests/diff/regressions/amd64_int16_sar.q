#! target amd64
#! model -
#! data 3b3d44539965f799000000800000000080000000000000008000000000000000feffffff00000000ffffffff00000000ffffffffffffff7f64d939ba65c49bedff2b6b326300feaffa67581b39306c25ffffffffffffff7ffeffffff000000002874c837b25784c20100000000000000eefec6cf8f08d34fffff0000000000009b1073a6f7a0c424dc63c08793e4237685065397f27e90b75b553e8038d59189425d7fbee14436673dc3bfc571dc46c6fefffffffffffffffeffffff000000008000000000000000b28b3536aad2b2bb01000000000000001330e1f57da830f8f104fc1486ba788afeffffff000000003404490caa7b93988000000000000000
# found by gen/qdiff.py: q[28] = 0xff, reference 0x1f: the interpreter shifted
# (int16) lanes logically (it knew only int32 as a signed lane cast); psraw is right
int64 i64_0
reg128 r128_2
int64 p q rv
enter fr_0
input p q
  i64_0 = mem64[p + 0]
  r128_2 = mem128[p + 32]
  ( int16 ) 8x r128_2 >>= 11
  mem128[q + 192] = r128_2
  rv = i64_0
output rv
leave
