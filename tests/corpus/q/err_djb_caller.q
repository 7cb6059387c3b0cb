#! error 9:5: 'r12' is a caller (callee-saved) register: only saving and restoring it is supported (our frame saves the registers it uses)
# the value a caller variable has at entry is not data we can give
int64 arg1
input arg1
int64 r12
caller r12
int64 x
enter f
x = r12
*(uint64 *) (arg1 + 0) = x
leave
