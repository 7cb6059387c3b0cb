# Fixed registers under pressure: 128-bit products (mul: rdx:rax) and shifts
# by a register count (cl) while 12 other values stay live, in a loop whose
# live ranges cross the back edge.  Uses every register, so callee-saved
# ones must be saved; the driver checks rbx, rbp, r12-r15 across the call.
int64 p n i a b c d e f g h k l hi lo t cnt acc
enter mulshift
input p n
a = mem64[p + 0]
b = mem64[p + 8]
c = mem64[p + 16]
d = mem64[p + 24]
e = mem64[p + 32]
f = mem64[p + 40]
g = mem64[p + 48]
h = mem64[p + 56]
k = mem64[p + 64]
l = mem64[p + 72]
acc = 0
i = 0
loop:
  (uint128) hi lo = a * b
  acc += lo
  acc ^= hi
  cnt = c
  cnt &= 63
  t = d
  t <<= cnt
  acc += t
  t = e
  t >>= cnt
  acc ^= t
  (uint128) hi lo = f * g
  h += hi
  k ^= lo
  l += acc
  # rotate the roles for the next iteration
  t = a
  a = b
  b = c
  c = d
  d = e
  e = f
  f = g
  g = h
  h = k
  k = l
  l = t
  i += 1
  unsigned<? i - n
goto loop if unsigned<
acc += a
acc ^= b
acc += c
acc ^= d
acc += e
acc ^= f
acc += g
acc ^= h
acc += k
acc ^= l
output acc
leave
