#! target ppc64
#! error 14:1: on this target the flags this reads come from an unsigned compare
# Found by the differential tester (gen/qdiff.py): on PowerPC a compare is
# cmpld (unsigned) or cmpd (signed), chosen by the COND? prefix; reading
# signed< after '=?' used to test the unsigned compare (wrong code for
# a = -1, b = 0).  Now a located error at the reader.
int64 a b r p q
enter cmpsign
input p q
a = mem64[p + 0]
b = mem64[p + 8]
r = 0
=? a - b
goto l if signed<
r = 1
l:
mem64[q + 0] = r
output r
leave
