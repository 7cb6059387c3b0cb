# found by make fuzz (target x86; ppc32 too): a 64-bit variable returned
# on a 32-bit target aborted with "internal error: no move for type int64
# in the x86 description"; it must be a clean error (or succeed) instead
int64 a b
enter f
output a
leave
