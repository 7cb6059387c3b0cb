#! target amd64
#! driver int64_carry.c
# int64 carry chains: a 256-bit add and subtract (the middle links keep
# their carries), a carry from an immediate into '+ 0 + carry', and a
# conditional move on the final carry.  The same program on every target
# with int64 (sparc64 copies %xcc.c into %icc.c at each link); driver
# int64_carry.c.
int64 p a0 a1 a2 a3 b0 b1 b2 b3 z r t

enter add256
input p
a0 = mem64[p + 0]
a1 = mem64[p + 8]
a2 = mem64[p + 16]
a3 = mem64[p + 24]
b0 = mem64[p + 32]
b1 = mem64[p + 40]
b2 = mem64[p + 48]
b3 = mem64[p + 56]
z = 0
carry? a0 = a0 + b0
carry? a1 = a1 + b1 + carry
carry? a2 = a2 + b2 + carry
carry? a3 = a3 + b3 + carry
z = z + z + carry
mem64[p + 64] = a0
mem64[p + 72] = a1
mem64[p + 80] = a2
mem64[p + 88] = a3
mem64[p + 96] = z
leave

enter sub256
input p
a0 = mem64[p + 0]
a1 = mem64[p + 8]
a2 = mem64[p + 16]
a3 = mem64[p + 24]
b0 = mem64[p + 32]
b1 = mem64[p + 40]
b2 = mem64[p + 48]
b3 = mem64[p + 56]
carry? a0 = a0 - b0
carry? a1 = a1 - b1 - carry
carry? a2 = a2 - b2 - carry
a3 = a3 - b3 - carry
mem64[p + 64] = a0
mem64[p + 72] = a1
mem64[p + 80] = a2
mem64[p + 88] = a3
leave

enter addimm
input p
a0 = mem64[p + 0]
a1 = mem64[p + 8]
carry? a0 = a0 + 5
a1 = a1 + 0 + carry
mem64[p + 16] = a0
mem64[p + 24] = a1
leave
