# A pinned variable stays in its register; others work around it.
#! contains mov r15, 7
#! contains push r15
int64 k@r15
int64 a b
enter f
input a b
k = 7
a += k
a *= b
output a
leave
