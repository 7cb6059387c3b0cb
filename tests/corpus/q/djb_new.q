#! contains vpunpckldq
#! contains vperm2i128
#! contains extern MASK
# djb's later dialect: implicit input_0, mem256, spelled-out shuffles,
# lane lists, external data, return
cpu avx2
reg256 a b c
enter djbnew
a = mem256[input_0 + 0]
b = mem256[input_0 + 32]
c = unpack low dwords of a and b
a[0,1,2,3] = c[0,1],b[2,3]
a ^= mem256[MASK]
mem256[input_0 + 0] = a
return
