#! contains ; requires:
#! contains rep movsb
#! lacks push r1[1-5]
# djb's 2007 dialect: input/caller before enter, *(uint64 *) memory,
# callee-saved registers saved by hand (dropped: our frame does it),
# leave returning 0, a copy loop
int64 arg1
int64 arg2
int64 arg3
input arg1
input arg2
input arg3
int64 r12
caller r12
stack64 r12_stack
int64 i
int64 out
int64 m
enter djbcopy
r12_stack = r12
out = arg1
m = arg2
i = arg3
while (i) { *out++ = *m++; --i }
i = *(uint64 *) (arg2 + 8)
*(uint32 *) (arg1 + 0) = i
r12 = r12_stack
leave
