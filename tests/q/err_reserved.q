#! error 2:7: 'carry' is a reserved word
int64 carry
enter f
leave
