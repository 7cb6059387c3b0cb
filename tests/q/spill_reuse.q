# Spill code reuses a value it has just stored or loaded: after a spilled
# value's definition, its reads in the next few instructions take the
# register that still holds it instead of loading the slot right after
# storing it (the store-to-load forwarding latency would sit on the
# dependence chain).  18 values live at once on 15 registers.
#! storeload 0
int64 p a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17
enter reuse
input p
a0 = mem64[p + 0]
a1 = mem64[p + 8]
a2 = mem64[p + 16]
a3 = mem64[p + 24]
a4 = mem64[p + 32]
a5 = mem64[p + 40]
a6 = mem64[p + 48]
a7 = mem64[p + 56]
a8 = mem64[p + 64]
a9 = mem64[p + 72]
a10 = mem64[p + 80]
a11 = mem64[p + 88]
a12 = mem64[p + 96]
a13 = mem64[p + 104]
a14 = mem64[p + 112]
a15 = mem64[p + 120]
a16 = mem64[p + 128]
a17 = mem64[p + 136]
a1 += a0
a2 += a1
a3 += a2
a4 += a3
a5 += a4
a6 += a5
a7 += a6
a8 += a7
a9 += a8
a10 += a9
a11 += a10
a12 += a11
a13 += a12
a14 += a13
a15 += a14
a16 += a15
a17 += a16
a0 += a17
a1 += a0
a2 += a1
a3 += a2
a4 += a3
a5 += a4
a6 += a5
a7 += a6
a8 += a7
a9 += a8
a10 += a9
a11 += a10
a12 += a11
a13 += a12
a14 += a13
a15 += a14
a16 += a15
a17 += a16
a0 += a17
mem64[p + 0] = a0
mem64[p + 8] = a1
mem64[p + 16] = a2
mem64[p + 24] = a3
mem64[p + 32] = a4
mem64[p + 40] = a5
mem64[p + 48] = a6
mem64[p + 56] = a7
mem64[p + 64] = a8
mem64[p + 72] = a9
mem64[p + 80] = a10
mem64[p + 88] = a11
mem64[p + 96] = a12
mem64[p + 104] = a13
mem64[p + 112] = a14
mem64[p + 120] = a15
mem64[p + 128] = a16
mem64[p + 136] = a17
leave
