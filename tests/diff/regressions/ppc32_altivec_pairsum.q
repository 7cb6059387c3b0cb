#! target ppc32
#! model -
#! data ffffffffffffffffffffffffffffffff800080008000800080008000800080008080808080808080808080808080808080008000800080008000800080008000276d4a9b79fe0c1333a6a91df0bd004004f8679367e429ab3d123951e00adc1913b47453ef9efc55992a10947593a8287ccd94da23f4045ce4532e1f4385189a4ac41c6312fa03a7b8fbf57fa57773c4c0bd6341b3bd467e00ff0e370055a1d573e9cd2aa3de55bb9b2a6b4286f7bbc12f115d011865a4c1703acca2614f75e21de60d02ed81082342b22b3d71ad269c5c7621335e09087ea3bab25e04ba050b0d5b372c73c0f21b41e58c69649b2dc87013a4e4894e6df29a3f0dbde3468299
# The AltiVec forms of the ppc32 NTRU Prime pair-sum products (issue 17,
# session 32): vmsumshm (pair sums of signed halfwords plus a 32-bit
# addend, mod 2^32: (-32768)^2 * 2 + u wraps), vslw/vsraw by 3 and by 16
# (the vspltisw -16 count), vpkswss (saturating), vmrghh/vmrglh (which
# operand's halfword comes first, big-endian lane order), vspltw.
cpu altivec
reg128 a b c d e
int32 p q rv
enter altivecpairsum_0
input p q
a = mem128[p + 0]
b = mem128[p + 16]
c = mem128[p + 64]
4x d = c + maddwd(b, b)
mem128[q + 0] = d
d = mem128[p + 80]
e = mem128[p + 96]
4x c = a + maddwd(d, e)
mem128[q + 16] = c
4x e = c + maddwd(e, d)
mem128[q + 32] = e
e = packs32(c, d)
mem128[q + 48] = e
c = mem128[p + 112]
d = mem128[p + 128]
a = unpacklo16(c, d)
mem128[q + 64] = a
b = unpackhi16(c, d)
mem128[q + 80] = b
e = mem128[p + 144]
4x e = e[1]
mem128[q + 96] = e
a = c
4x a <<= 16
mem128[q + 112] = a
(int32) 4x a >>= 16
mem128[q + 128] = a
b = c
4x b <<= 3
(int32) 4x b >>= 5
mem128[q + 144] = b
(int32) 4x c >>= 16
mem128[q + 160] = c
d = packs32(a, c)
mem128[q + 176] = d
rv = 0
output rv
leave
