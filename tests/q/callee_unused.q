# A leaf function with few values saves no callee-saved register and has no frame.
#! lacks push|pop|rsp
#! contains %line 7+0
int64 a b
enter f
input a b
a += b
a <<<= 3
output a
leave
