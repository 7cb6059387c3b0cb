#! target ppc64
#! error 12:1: no form of 'r = &s' takes operands (int32, stack32) on ppc64
# Issue 13: ppc32.md's int32 `r = & s` (la) was also a ppc64 form, so a
# 64-bit stack address was silently cut to an int32 there (and amd64,
# sparc64 have no such form).  It is !ppc64 now: a located error; the
# int64 form is ppc64.md's.
int32 r
stack32 s
enter addr32
r = 5
s = r
r = &s
output r
leave
