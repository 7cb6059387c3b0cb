#! target sparc64
#! contains sra %
# (int32) t >>= 3 on sparc64 (issue 13: it said "undeclared variable 'int32'")
int32 t
enter f
input t
(int32) t >>= 3
output t
leave
