#! target ppc32
#! driver int32_flags.c
# The wrong-code programs of issue 13 (int32 on 64-bit targets: tests and
# carries must be computed at 32 bits, whatever the upper register half
# holds), and int32 compares, tests and carry chains at edge values.  The
# same program on every target (tests/run/int32_flags_*.q differ only in
# the target line and the pointer type); the driver is int32_flags.c.
int32 a b t r m x y z
int32 al ah bl bh rl rh a2 b2 r2 c
int32 p

# issue 13, program 1: flag32(0xffffffff, 1) must be 0
enter flag32
input a b
t = a + b
r = 0
=? t & t
goto z1 if =
r = 1
z1:
output r
leave

# program 2: the flags of the add itself
enter flag32b
input a b
r = 0
=? t = a + b
goto z2 if =
r = 1
z2:
output r
leave

# program 3: a two-word int32 carry chain
enter carry32
input p
al = mem32[p + 0]
ah = mem32[p + 4]
bl = mem32[p + 8]
bh = mem32[p + 12]
carry? rl = al + bl
rh = ah + bh + carry
mem32[p + 16] = rl
mem32[p + 20] = rh
leave

# a three-word chain (the middle add keeps its carry) and the carry out
enter carry96
input p
al = mem32[p + 0]
ah = mem32[p + 4]
a2 = mem32[p + 8]
bl = mem32[p + 12]
bh = mem32[p + 16]
b2 = mem32[p + 20]
z = 0
c = 0
carry? rl = al + bl
carry? rh = ah + bh + carry
carry? r2 = a2 + b2 + carry
c = c + z + carry
mem32[p + 24] = rl
mem32[p + 28] = rh
mem32[p + 32] = r2
mem32[p + 36] = c
leave

# a two-word borrow chain
enter sub64
input p
al = mem32[p + 0]
ah = mem32[p + 4]
bl = mem32[p + 8]
bh = mem32[p + 12]
carry? rl = al - bl
rh = ah - bh - carry
mem32[p + 16] = rl
mem32[p + 20] = rh
leave

# compares and tests; m = 0xffffffff makes x = a + m + 1 equal to a in 32
# bits with (on 64-bit targets) a 1 carried into the upper register half
enter cmp32
input a b m
x = a + m
x += 1
y = b + m
y += 1
r = 0
=? x - y
goto n1 if !=
r |= 1
n1:
unsigned<? x - y
goto n2 if unsigned>=
r |= 2
n2:
signed<? x - y
goto n3 if signed>=
r |= 4
n3:
unsigned>? x - y
goto n4 if unsigned<=
r |= 8
n4:
signed>? x - y
goto n5 if signed<=
r |= 16
n5:
=? x & y
goto n6 if !=
r |= 32
n6:
=? x - 0
goto n7 if !=
r |= 64
n7:
unsigned<? x - 5
goto n8 if unsigned>=
r |= 128
n8:
signed<? x - -3
goto n9 if signed>=
r |= 256
n9:
=? t = x - y
goto n10 if !=
r |= 512
n10:
=? t = x ^ y
goto n11 if !=
r |= 1024
n11:
output r
leave

# a carry from an immediate add into `+ 0 + carry`
enter carry32i
input p
al = mem32[p + 0]
ah = mem32[p + 4]
carry? rl = al + 100
rh = ah + 0 + carry
mem32[p + 8] = rl
mem32[p + 12] = rh
leave

# a three-word borrow chain (the middle subtraction keeps its borrow)
enter sub96
input p
al = mem32[p + 0]
ah = mem32[p + 4]
a2 = mem32[p + 8]
bl = mem32[p + 12]
bh = mem32[p + 16]
b2 = mem32[p + 20]
carry? rl = al - bl
carry? rh = ah - bh - carry
r2 = a2 - b2 - carry
mem32[p + 24] = rl
mem32[p + 28] = rh
mem32[p + 32] = r2
leave
