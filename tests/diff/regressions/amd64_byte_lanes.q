#! target amd64
#! model -
#! data ffffffffffffffffffffffffffffffff807f807f807f807f807f807f807f807f0101010101010101010101010101010180818081808180818081808180818081d49bbb94598e380d7fc4d681a2cd461f47644d6ba93f239ed129f248d1ac09ddbe1ab519f4bf02cf7a3b6d7fb81d88208d6242809db2a357aa308bab0419b2095c3ee5ab7a65fafc5df597ea8764813ca65978567966bb67fc6e998703afcf70cfb18b8a9b3a90f44afd526169df43d0f5336784adf02dfb4bf44dfa287f2fb468c903442cf4cccf5cc5d5428acbb849abad9a40de09d84a53da02ea330483d8cef5f1d44d73585abc98fd1d2fb45b4d6c86275376429936bf21b7a82d88b157
# The byte-lane forms added for the bitsliced R/3 product (issue 17):
# 32x reg256 add and subtract (vpaddb, vpsubb), register and memory forms.
# Lanes 0-15 of a + b wrap 0xff + 1 in every byte (16-bit lanes would carry
# into the next byte); 0x80 + 0x80 and 0x7f - 0x81 wrap as bytes.
cpu avx2
reg256 a b c d
int64 p q rv
enter bytelanes_0
input p q
a = mem256[p + 0]
b = mem256[p + 32]
32x c = a + b
mem256[q + 0] = c
32x d = a - b
mem256[q + 32] = d
32x c = b + mem256[p + 64]
mem256[q + 64] = c
32x d = a - mem256[p + 96]
mem256[q + 96] = d
rv = 0
output rv
leave
