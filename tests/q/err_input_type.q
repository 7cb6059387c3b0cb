#! error 4:7: input 'v' (reg128) is not supported by the amd64 ABI
reg128 v
enter f
input v
leave
