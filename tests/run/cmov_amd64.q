#! target amd64
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

int64 a6 b6 m6 x6 y6 r6 t6 u6 v6 c6 d6
enter cmov64
input a6 b6 m6
x6 = a6 + m6
x6 += 1
y6 = b6 + m6
y6 += 1
r6 = 0
t6 = 0
u6 = 1
=? x6 - y6
t6 = u6 if =
r6 |= t6
t6 = 0
u6 = 1
!=? x6 - y6
t6 = u6 if !=
t6 <<= 1
r6 |= t6
t6 = 0
u6 = 1
unsigned<? x6 - y6
t6 = u6 if unsigned<
t6 <<= 2
r6 |= t6
t6 = 0
u6 = 1
unsigned>=? x6 - y6
t6 = u6 if unsigned>=
t6 <<= 3
r6 |= t6
t6 = 0
u6 = 1
unsigned>? x6 - y6
t6 = u6 if unsigned>
t6 <<= 4
r6 |= t6
t6 = 0
u6 = 1
unsigned<=? x6 - y6
t6 = u6 if unsigned<=
t6 <<= 5
r6 |= t6
t6 = 0
u6 = 1
signed<? x6 - y6
t6 = u6 if signed<
t6 <<= 6
r6 |= t6
t6 = 0
u6 = 1
signed>=? x6 - y6
t6 = u6 if signed>=
t6 <<= 7
r6 |= t6
t6 = 0
u6 = 1
signed>? x6 - y6
t6 = u6 if signed>
t6 <<= 8
r6 |= t6
t6 = 0
u6 = 1
signed<=? x6 - y6
t6 = u6 if signed<=
t6 <<= 9
r6 |= t6
output r6
leave

# select one of two full-width values (c if a unsigned< b, else d)
enter cmov64sel
input a6 b6 c6 d6
v6 = d6
unsigned<? a6 - b6
v6 = c6 if unsigned<
output v6
leave
