#! target sparc64
#! error 6:1: target sparc64 has no form of '(uint128) h l = a * b'; closest forms: '( uint64 ) h l = a * b' (h: int32, l: int32, a: int32, b: int32)
# A cast word that no form of the target uses is not an undeclared variable
int64 h l a b
enter f
(uint128) h l = a * b
output h
leave
