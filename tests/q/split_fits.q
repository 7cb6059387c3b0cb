# Values a loop never touches stay in one register when the loop's values
# fit in the registers: no split copies around the loops (issue 14; the
# Benes network's layers, where v and cb changed registers around every
# inner loop: 228 moves against 160).  Two layers of nested loops; v and cb
# are live through both, used only between them.  The three register
# copies left: x0 = v of the first layer (the second takes v itself) and
# the copy each two-operand `u = a ^ b` needs.  Before: 14.
#! count ^\s+mov\s+[a-z]\w*,\s+[a-z]\w*$ 3
int64 v cb c x0 o0 o1 k a b u
enter layers
input v cb
c = cb + 0
x0 = v
o0 = 4
outer0:
  o1 = 2
  inner0:
    k = mem64[c + 0]
    a = mem64[x0 + 0]
    b = mem64[x0 + 16]
    u = a ^ b
    u &= k
    a ^= u
    b ^= u
    mem64[x0 + 0] = a
    mem64[x0 + 16] = b
    x0 = x0 + 8
    c = c + 8
    o1 = o1 - 1
    =? o1 - 0
    goto inner0 if !=
  x0 = x0 + 16
  o0 = o0 - 1
  =? o0 - 0
  goto outer0 if !=
c = cb + 64
x0 = v
o0 = 4
outer1:
  o1 = 2
  inner1:
    k = mem64[c + 0]
    a = mem64[x0 + 0]
    b = mem64[x0 + 32]
    u = a ^ b
    u &= k
    a ^= u
    b ^= u
    mem64[x0 + 0] = a
    mem64[x0 + 32] = b
    x0 = x0 + 8
    c = c + 8
    o1 = o1 - 1
    =? o1 - 0
    goto inner1 if !=
  x0 = x0 + 48
  o0 = o0 - 1
  =? o0 - 0
  goto outer1 if !=
leave
