# our own dialect: external data, parts of stack variables, early return
extern table
int64 p n r t i
stack128 s
enter lookup_sum
input p n
  # r = table[n] + table[n+1] through the 32-bit halves of a stack128
  =? n - 0
  goto zero if =
  t = &mem8[table]
  r = mem64[t + n*8]
  i = mem64[table + 8]
  mem32[&s + 0] = r
  r >>= 32
  mem32[&s + 4] = r
  mem64[&s + 8] = i
  r = mem64[&s]
  r += mem64[&s + 8]
  r += p
output r
  return
zero:
  r = mem64[table]
leave
