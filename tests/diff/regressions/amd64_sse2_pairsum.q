#! target amd64
#! model -
#! data ffffffffffffffffffffffffffffffff008000800080008000800080008000808080808080808080808080808080808000800080008000800080008000800080d49bbb94598e380d7fc4d681a2cd461f47644d6ba93f239ed129f248d1ac09ddbe1ab519f4bf02cf7a3b6d7fb81d88208d6242809db2a357aa308bab0419b209ef8bf21b659e8426f80a46cef8c85d64804d386c199ca1a11952d62f9f80cef5262b7b7387539719f9c9f971d0e327eb6f75f7a260ba0ed81ba85676a0bc586c9bdeb6e52f3605625be6ede446f3e70696865e04efaca86c1a8832070e39f19a68320de9710fcc3edb1d1e608689b6b1d5cf03ad291191a6a43cab417cfd91e2
# The legacy SSE2 forms of the amd64 NTRU Prime pair-sum products (issue
# 17, session 31): pmaddwd (pair sums mod 2^32: (-32768)^2 * 2 wraps in
# b, b), packssdw (saturating), punpcklwd/punpckhwd (which operand's word
# comes first), movd + pshufd (the broadcast pair).
reg128 a b c d
int64 p q rv
enter sse2pairsum_0
input p q
a = mem128[p + 0]
b = mem128[p + 16]
c = b
4x c = maddwd(c, b)
mem128[q + 0] = c
d = mem128[p + 64]
4x d = maddwd(d, a)
mem128[q + 16] = d
c = mem128[p + 80]
d = mem128[p + 96]
4x c = maddwd(c, d)
mem128[q + 32] = c
c = packs32(c, d)
mem128[q + 48] = c
c = mem128[p + 112]
d = mem128[p + 128]
a = c
a = unpacklo16(a, d)
mem128[q + 64] = a
c = unpackhi16(c, d)
mem128[q + 80] = c
d = mem32[p + 146]
d = shuffle32(d, 0)
mem128[q + 96] = d
rv = 0
output rv
leave
