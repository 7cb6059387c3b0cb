# Arguments stay in their registers until taken, however the scheduler
# orders the entry block (a scheduled `or` once overwrote m in r4).
#! target ppc32
int32 st m nhi nlo hib t
enter args5
input st m nhi nlo hib
t = nhi | nlo
=? t - 0
goto done if =
t = mem32[m + 0]
t += hib
mem32[st + 0] = t
done:
leave
