#! target amd64
#! model -
#! data ffffffffffffffffffffffffffffffff008000800080008000800080008000808080808080808080808080808080808000800080008000800080008000800080d49bbb94598e380d7fc4d681a2cd461f47644d6ba93f239ed129f248d1ac09ddbe1ab519f4bf02cf7a3b6d7fb81d88208d6242809db2a357aa308bab0419b209ef8bf21b659e8426f80a46cef8c85d64804d386c199ca1a11952d62f9f80cef5262b7b7387539719f9c9f971d0e327eb6f75f7a260ba0ed81ba85676a0bc586c9bdeb6e52f3605625be6ede446f3e70696865e04efaca86c1a8832070e39f19a68320de9710fcc3edb1d1e608689b6b1d5cf03ad291191a6a43cab417cfd91e2
# The pair-sum forms of the NTRU Prime AVX2 kernels (issue 17): maddubs
# (unsigned bytes of s times signed bytes of t, pair sums saturated: lanes
# 0-7 of a, b saturate), maddwd (pair sums mod 2^32: (-32768)^2 * 2 wraps in
# lanes 4-7 of b, b), zeroext16, packs32 (saturating), (int32) >>.
cpu avx2
reg256 a b c d
int64 p q rv
enter pairsum_0
input p q
a = mem256[p + 0]
b = mem256[p + 32]
16x c = maddubs(a, b)
mem256[q + 0] = c
16x c = maddubs(b, mem256[p + 64])
mem256[q + 32] = c
8x c = maddwd(b, b)
mem256[q + 64] = c
8x c = maddwd(a, mem256[p + 96])
mem256[q + 96] = c
8x d = zeroext16(mem128[p + 128])
mem256[q + 128] = d
(int32) 8x d = c >> 9
c = mem256[p + 160]
c = packs32(c, d)
mem256[q + 160] = c
d = mem256[p + 192]
(int32) 8x d = d >> 31
mem256[q + 192] = d
rv = 0
output rv
leave
