# x86: esp is never allocated, even to a value only used as an address.
#! target x86
#! lacks ^\s+(mov|lea|add|sub|xor|and|or)\s+esp,\s+[a-z\[]
int32 out in x11 x12 x13 x14 x15 t i
enter esp_bug
input out in
x11 = mem32[in + 44]
x12 = mem32[in + 48]
x13 = mem32[in + 52]
x14 = mem32[in + 56]
x15 = mem32[in + 60]
i = 10
  t = x14 + x13
  =? i -= 1
mem32[out + 44] = x11
mem32[out + 48] = x12
mem32[out + 52] = x13
mem32[out + 56] = x14
mem32[out + 60] = x15
leave
