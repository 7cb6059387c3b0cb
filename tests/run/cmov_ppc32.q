#! target ppc32
#! driver cmov.c
# Conditional moves on every condition, after a compare of two values
# whose registers carry (on 64-bit targets, for int32) garbage above bit 31,
# and a select of two full-width values.  The same program on every target
# (PowerPC: branch-free mask sequences; sparc64: MOVcc); driver cmov.c.
int32 a b m x y r t u v c d
enter cmov32
input a b m
x = a + m
x += 1
y = b + m
y += 1
r = 0
t = 0
u = 1
=? x - y
t = u if =
r |= t
t = 0
u = 1
!=? x - y
t = u if !=
t <<= 1
r |= t
t = 0
u = 1
unsigned<? x - y
t = u if unsigned<
t <<= 2
r |= t
t = 0
u = 1
unsigned>=? x - y
t = u if unsigned>=
t <<= 3
r |= t
t = 0
u = 1
unsigned>? x - y
t = u if unsigned>
t <<= 4
r |= t
t = 0
u = 1
unsigned<=? x - y
t = u if unsigned<=
t <<= 5
r |= t
t = 0
u = 1
signed<? x - y
t = u if signed<
t <<= 6
r |= t
t = 0
u = 1
signed>=? x - y
t = u if signed>=
t <<= 7
r |= t
t = 0
u = 1
signed>? x - y
t = u if signed>
t <<= 8
r |= t
t = 0
u = 1
signed<=? x - y
t = u if signed<=
t <<= 9
r |= t
output r
leave

# select one of two full-width values (c if a unsigned< b, else d)
enter cmov32sel
input a b c d
v = d
unsigned<? a - b
v = c if unsigned<
output v
leave
