# Flag definitions nobody reads are ordered only against the live ones: on
# an in-order machine the xor, independent of the load, moves above the add
# that waits for it, although both write the flags.
#! model inorder.model
#! order ^\s+xor\s ^\s+add\s
int64 p a b c d
enter sched_flags
input p a b
c = mem64[p]
c += 1
d = a
d ^= b
mem64[p + 8] = c
mem64[p + 16] = d
leave
