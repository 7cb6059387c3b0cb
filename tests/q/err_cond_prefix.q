#! error 5:1: this instruction does not set the flags 'carry?' asks for
int64 a b
enter f
input a b
carry? a = b
leave
