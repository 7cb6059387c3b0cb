; tests/abi/broken.asm: hand-written amd64 kernels for the ABI checker's
; self-test (tests/sh/abicheck.sh, tests/abi/abitest.c).  One respects the
; System V ABI; every other one breaks it in exactly one way.  Written in
; NASM directly: the translator always saves the callee-saved registers it
; uses, so it cannot produce these.
default rel
section .text

; uint64_t abi_good(uint64_t a, uint64_t b, ..., uint64_t f): a+b+c+d+e+f,
; using (and saving) every callee-saved register, the stack and ymm
global abi_good
abi_good:
        push rbx
        push rbp
        push r12
        push r13
        push r14
        push r15
        sub rsp, 8
        mov rbx, rdi
        mov rbp, rsi
        mov r12, rdx
        mov r13, rcx
        mov r14, r8
        mov r15, r9
        mov [rsp], rbx
        mov rax, [rsp]
        add rax, rbp
        add rax, r12
        add rax, r13
        add rax, r14
        add rax, r15
        add rsp, 8
        pop r15
        pop r14
        pop r13
        pop r12
        pop rbp
        pop rbx
        ret

; the same work with AVX2 registers, ending in vzeroupper (correct)
global abi_good_avx
abi_good_avx:
        vpxor ymm0, ymm0, ymm0
        vpcmpeqd ymm1, ymm1, ymm1
        vpaddd ymm0, ymm0, ymm1
        lea rax, [rdi + rsi]
        vzeroupper
        ret

; writes r12 without saving it
global abi_clobber_r12
abi_clobber_r12:
        mov r12, rdi
        lea rax, [rdi + rsi]
        ret

; writes rbx and rbp without saving them
global abi_clobber_rbx_rbp
abi_clobber_rbx_rbp:
        xor ebx, ebx
        mov rbp, rsi
        lea rax, [rdi + rsi]
        ret

; returns with rsp 8 bytes lower than it should be
global abi_bad_rsp
abi_bad_rsp:
        pop rcx
        sub rsp, 8
        lea rax, [rdi + rsi]
        jmp rcx

; writes the caller's stack above its return address
global abi_stack_write
abi_stack_write:
        mov [rsp + 16], rdi
        lea rax, [rdi + rsi]
        ret

; returns with the direction flag set
global abi_set_df
abi_set_df:
        std
        lea rax, [rdi + rsi]
        ret

; changes the SSE rounding mode (MXCSR) and does not restore it
global abi_mxcsr
abi_mxcsr:
        sub rsp, 8
        stmxcsr [rsp]
        or dword [rsp], 0x6000
        ldmxcsr [rsp]
        add rsp, 8
        lea rax, [rdi + rsi]
        ret

; uses ymm registers and returns without vzeroupper
global abi_dirty_ymm
abi_dirty_ymm:
        vpcmpeqd ymm1, ymm1, ymm1
        vpaddd ymm0, ymm1, ymm1
        lea rax, [rdi + rsi]
        ret

section .note.GNU-stack noalloc noexec nowrite progbits
