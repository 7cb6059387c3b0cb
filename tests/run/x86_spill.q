# x86: 12 live values on 7 registers, a 64-bit product (edx:eax), shifts by
# cl and stack arguments: everything the cdecl ABI and spilling must handle.
#! target x86
int32 p n i a b c d e f g h k hi lo t cnt acc
enter x86_spill
input p n
a = mem32[p + 0]
b = mem32[p + 4]
c = mem32[p + 8]
d = mem32[p + 12]
e = mem32[p + 16]
f = mem32[p + 20]
g = mem32[p + 24]
h = mem32[p + 28]
k = mem32[p + 32]
acc = 0
i = 0
loop:
  (uint64) hi lo = a * b
  acc += lo
  acc ^= hi
  cnt = c
  cnt &= 31
  t = d
  t <<= cnt
  acc += t
  t = e
  t >>= cnt
  acc ^= t
  h += f
  k ^= g
  t = a
  a = b
  b = c
  c = d
  d = e
  e = f
  f = g
  g = h
  h = k
  k = t
  k += acc
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
output acc
leave
