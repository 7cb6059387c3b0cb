# x is pinned to rdx, but the 128-bit product needs rdx while x is live.
#! error 8:1: the fixed registers of this instruction cannot be satisfied: 'x' is pinned to a register it needs
int64 x@rdx
int64 a b h l
enter f
input a b
x = 5
(uint128) h l = a * b
h += x
h += l
output h
leave
