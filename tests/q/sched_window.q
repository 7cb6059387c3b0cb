# The same block scheduled for an out-of-order core (zen4: a window of 64
# instructions) keeps the source order: the core hides the load's latency
# itself, so the model predicts no gain from moving the xor up.
#! model zen4
#! order ^\s+add\s ^\s+xor\s
int64 p a b c d
enter sched_window
input p a b
c = mem64[p]
c += 1
d = a
d ^= b
mem64[p + 8] = c
mem64[p + 16] = d
leave
