"""An interpreter of .q programs on the reference semantics (gen/qsem.py).

    python3 -m gen.qinterp FILE.q FUNCTION [--target T] [ARG ...]

runs one function with integer arguments (pointers into memory must be
built by a driver: see run() and tests/diff/kernels.py) and prints the
return value.  It is written in Python, apart from the translator's C
parser, on purpose: a second, independent reading of the language (its
lexer and operand rules are re-implemented from docs/language.md and
check.c's grammar) is what a differential test needs; sharing the parser
would share its bugs.  The target only fixes the byte order of plain
`memN`, the pointer width, and the available types; every statement means
the same on every target.
"""
from __future__ import annotations

import re
import sys

from gen import qsem
from gen.qsem import Undefined, mask, sx

TYPES = {"int32": 32, "int64": 64, "float64": 64, "reg128": 128, "reg256": 256, "reg512": 512,
         "stack32": 32, "stack64": 64, "stack128": 128, "stack256": 256, "stack512": 512}
BIGENDIAN = {"amd64": False, "x86": False, "ppc32": True, "ppc64": True, "sparc64": True}
PTRBITS = {"amd64": 64, "x86": 32, "ppc32": 32, "ppc64": 64, "sparc64": 64}

_OPS = ["<<<=", ">>>=", "<<=", ">>=", "<<<", ">>>", "+=", "-=", "*=", "&=", "|=", "^=", "<=", ">=",
        "==", "!=", "<<", ">>", "=", "+", "-", "*", "&", "|", "^", "~", "(", ")", "[", "]", ",", ":",
        "?", "!", "<", ">", "{", "}", "@"]
_TOK = re.compile(r"\s*(?:(#.*)|([A-Za-z_.][A-Za-z0-9_.]*)|(0[xX][0-9a-fA-F]+|[0-9]+x(?![A-Za-z0-9_.])|[0-9]+)|("
                  + "|".join(re.escape(o) for o in _OPS) + "))")
ASSIGN = {"+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "<<<=", ">>>="}


class QError(Exception):
    """a malformed program (the translator would reject it)"""


def lex(line: str) -> list[tuple[str, str]]:
    """tokens as (kind, text): kind id, num, lane, op"""
    out, i = [], 0
    while True:
        m = _TOK.match(line, i)
        if not m or m.end() == i:
            if line[i:].strip() == "":
                return out
            raise QError(f"unexpected character in {line[i:]!r}")
        i = m.end()
        if m.group(1) is not None:
            return out
        if m.group(2):
            out.append(("id", m.group(2)))
        elif m.group(3):
            t = m.group(3)
            out.append(("lane", t) if t.endswith("x") else ("num", t))
        else:
            out.append(("op", m.group(4)))
        if i >= len(line):
            return out


def canon(t: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`D op= X` -> `D = D op X` (D one token or a memN[...] reference)"""
    k = next((i for i, x in enumerate(t) if x[0] == "op" and x[1] in ASSIGN), -1)
    if k <= 0:
        return t
    d = k - 1
    if t[d] == ("op", "]"):
        while d > 0 and t[d] != ("op", "["):
            d -= 1
        d = max(d - 1, 0)
    return t[:k] + [("op", "=")] + t[d:k] + [("op", t[k][1][:-1])] + t[k + 1:]


class Prog:
    def __init__(self, text: str, path: str = "<q>"):
        self.vars: dict[str, tuple[str, int]] = {}    # name -> (type, count)
        self.consts: dict[str, tuple[int, list[int]]] = {}
        self.fns: dict[str, dict] = {}
        self.path = path
        fn = None
        for ln, line in enumerate(text.split("\n"), 1):
            t = lex(line)
            if not t:
                continue
            w = t[0][1]
            if w in TYPES:
                self._decl(t, w)
            elif w == "const":
                bits = int(t[2][1][1:])
                vals, i = [], 3
                while i < len(t):
                    neg = t[i] == ("op", "-")
                    i += neg
                    v = int(t[i][1], 0)
                    vals.append((-v if neg else v) & mask(bits))
                    i += 1
                self.consts[t[1][1]] = (bits, vals)
            elif w == "cpu":
                continue
            elif w == "enter":
                fn = {"name": t[1][1], "stmts": [], "labels": {}, "input": [], "output": None}
                self.fns[fn["name"]] = fn
            elif fn is None:
                raise QError(f"{path}:{ln}: statement outside a function")
            elif w == "input":
                fn["input"] = [x[1] for x in t[1:]]
            elif w == "output":
                fn["output"] = t[1][1]
            elif w in ("secret", "declassify"):
                continue
            elif w == "leave":
                fn["stmts"].append(("leave", ln))
                fn = None
            elif len(t) == 2 and t[1] == ("op", ":"):
                fn["labels"][t[0][1]] = len(fn["stmts"])
            else:
                fn["stmts"].append(self._stmt(t, ln))

    def _decl(self, t, typ):
        i = 1
        while i < len(t):
            name = t[i][1]
            i += 1
            count = 1
            if i < len(t) and t[i] == ("op", "@"):
                i += 2
            if i < len(t) and t[i] == ("op", "["):
                count = int(t[i + 1][1], 0)
                i += 3
            self.vars[name] = (typ, count)

    def _stmt(self, t, ln):
        cond = None
        for i in range(min(len(t), 5)):
            if t[i] == ("op", "?"):
                cond = "".join(x[1] for x in t[:i])
                t = t[i + 1:]
                break
        t = canon(t)
        shape, ops, i = [], [], 0
        while i < len(t):
            kind, s = t[i]
            if kind == "id" and re.fullmatch(r"mem(8|16|32|64|128|256|512)(le|be)?", s):
                op, i = self._mem(t, i)
                ops.append(op)
                shape.append("$")
                continue
            prev = t[i - 1] if i else None
            operandlike = prev is not None and (prev[0] in ("id", "num") or prev[1] in ("]", ")"))
            if kind == "num":
                ops.append(("imm", int(s, 0)))
            elif s == "-" and i + 1 < len(t) and t[i + 1][0] == "num" and not operandlike:
                ops.append(("imm", -int(t[i + 1][1], 0)))
                i += 1
            elif kind == "id" and prev == ("id", "goto"):
                ops.append(("lab", s))
            elif kind == "id" and s in self.vars:
                ops.append(("var", s))
            else:
                shape.append(s)
                i += 1
                continue
            shape.append("$")
            i += 1
        return ("ins", ln, " ".join(shape), ops, cond)

    def _mem(self, t, i):
        m = re.fullmatch(r"mem(\d+)(le|be)?", t[i][1])
        width, endian = int(m.group(1)), m.group(2)
        i += 2  # name, '['
        base = index = sym = None
        scale, disp, sign = 1, 0, 1
        while t[i] != ("op", "]"):
            k, s = t[i]
            if s in "+-" and k == "op":
                sign = 1 if s == "+" else -1
                i += 1
                continue
            if k == "num" and i + 2 < len(t) and t[i + 1] == ("op", "*"):
                index, scale = t[i + 2][1], int(s, 0)
                i += 3
                continue
            if k == "num":
                disp += sign * int(s, 0)
            elif s in self.consts:
                sym = s
            elif i + 1 < len(t) and t[i + 1] == ("op", "*"):
                index, scale = s, int(t[i + 2][1], 0)
                i += 2
            elif base is None:
                base = s
            else:
                index = s
            i += 1
        if base is None and index is not None and scale == 1:
            base, index = index, None
        return ("mem", width, endian, base, index, scale, disp, sym), i + 1


class Memory:
    """a flat little address space: allocated ranges are valid, the rest faults"""

    BASE = 0x10000

    def __init__(self, big: bool):
        self.big = big
        self.buf = bytearray(1 << 16)
        self.valid = bytearray(1 << 16)   # 1 allocated, 2 allocated and written
        self.top = 0x100

    def alloc(self, n: int, align: int = 64, data: bytes | None = None, guard: int = 64,
              init: bool = True) -> int:
        """n bytes; with init=False (stack variables) reading a byte before
        writing it is undefined"""
        self.top = (self.top + guard + align - 1) // align * align
        a = self.top
        self.top += n
        while self.top + guard >= len(self.buf):
            self.buf.extend(bytes(len(self.buf)))
            self.valid.extend(bytes(len(self.valid)))
        self.valid[a:a + n] = bytes([2 if init else 1]) * n
        if data is not None:
            self.buf[a:a + len(data)] = data
        return a + self.BASE

    def _chk(self, addr: int, n: int, need: int = 1) -> int:
        o = addr - self.BASE
        if o < 0 or o + n > len(self.buf) or 0 in self.valid[o:o + n]:
            raise Undefined(f"access of {n} bytes at 0x{addr:x} outside allocated memory")
        if need == 2 and 1 in self.valid[o:o + n]:
            raise Undefined(f"read of {n} bytes at 0x{addr:x} (a stack variable) before they are written")
        return o

    def read(self, addr: int, n: int) -> bytes:
        o = self._chk(addr, n, 2)
        return bytes(self.buf[o:o + n])

    def write(self, addr: int, data: bytes) -> None:
        o = self._chk(addr, len(data))
        self.buf[o:o + len(data)] = data
        self.valid[o:o + len(data)] = bytes([2]) * len(data)

    def load(self, addr: int, bits: int, endian: str | None) -> int:
        big = self.big if endian is None else endian == "be"
        return int.from_bytes(self.read(addr, bits // 8), "big" if big else "little")

    def store(self, addr: int, bits: int, endian: str | None, v: int) -> None:
        big = self.big if endian is None else endian == "be"
        self.write(addr, (v & mask(bits)).to_bytes(bits // 8, "big" if big else "little"))


class Interp:
    def __init__(self, prog: Prog, target: str, mem: Memory | None = None, stackfill: int | None = None):
        """stackfill: None, reading a stack byte before writing it is
        undefined; a byte value, stack variables start as that byte (for
        kernels that read unwritten stack bytes and discard what they
        computed from them: run twice with different bytes)"""
        self.stackfill = stackfill
        self.p = prog
        self.target = target
        self.big = BIGENDIAN[target]
        self.ptr = PTRBITS[target]
        self.mem = mem or Memory(self.big)
        self.constaddr = {n: self.mem.alloc(len(v) * b // 8, 64, b"".join(
            x.to_bytes(b // 8, "big" if self.big else "little") for x in v), guard=0)
            for n, (b, v) in prog.consts.items()}
        self.steps = 0
        self.code: dict[str, list] = {}
        self._dec: dict[str, tuple] = {}
        self.regs: dict[str, object] = {}
        self.flags: dict[str, bool] = {}

    # ---- operands
    def width(self, name: str) -> int:
        return TYPES[self.p.vars[name][0]]

    def isvec(self, name: str) -> bool:
        return self.p.vars[name][0].startswith("reg")

    def isstack(self, name: str) -> bool:
        return self.p.vars[name][0].startswith("stack")

    def addr(self, op) -> int:
        if op[0] == "var":
            return self.stack[op[1]]
        _, width, endian, base, index, scale, disp, sym = op
        a = disp
        if sym is not None:
            a += self.constaddr[sym]
        if base is not None:
            a += self.regs[base]
        if index is not None:
            a += self.regs[index] * scale
        a &= mask(self.ptr)
        if width == 128 and self.target.startswith("ppc") and a % 16:
            raise Undefined(f"mem128 at 0x{a:x}: AltiVec needs 16-byte alignment")
        return a

    def memof(self, op):
        """(address, bits, endian) of a memory operand or stack variable"""
        if op[0] == "var":
            return self.stack[op[1]], self.width(op[1]), None
        return self.addr(op), op[1], op[2]

    def ismem(self, op) -> bool:
        return op[0] == "mem" or (op[0] == "var" and self.isstack(op[1]))

    def get(self, op, w: int | None = None) -> int:
        """an integer operand, reduced to w bits"""
        if op[0] == "imm":
            v = op[1]
        elif self.ismem(op):
            v = self.mem.load(*self.memof(op))
        else:
            if op[1] not in self.regs:
                raise Undefined(f"'{op[1]}' read before it is written")
            v = self.regs[op[1]]
            if isinstance(v, bytes):
                v = qsem.lanes(v, 64 if w and w > 32 else 32, self.big)[0]
        return v & mask(w) if w else v

    def vget(self, op, nbytes: int) -> bytes:
        if self.ismem(op):
            a, bits, _ = self.memof(op)
            return self.mem.read(a, bits // 8)
        v = self.regs.get(op[1])
        if v is None:
            raise Undefined(f"'{op[1]}' read before it is written")
        return v

    def put(self, op, v, w: int | None = None) -> None:
        if self.ismem(op):
            a, bits, e = self.memof(op)
            if isinstance(v, bytes):
                self.mem.write(a, v[:bits // 8])
            else:
                self.mem.store(a, bits, e, v)
            return
        name = op[1]
        if isinstance(v, bytes):
            self.regs[name] = v
        else:
            self.regs[name] = v & mask(self.width(name))

    def opwidth(self, op) -> int:
        if op[0] == "var":
            return self.width(op[1])
        if op[0] == "mem":
            return op[1]
        return 64

    # ---- running
    def call(self, fname: str, args: list[int]) -> int | None:
        fn = self.p.fns[fname]
        self.regs.clear()
        self.stack = {}
        for n, (t, count) in self.p.vars.items():
            if t.startswith("stack"):
                size = TYPES[t] // 8 * count
                al = max(TYPES[t] // 8, 16 if count > 1 else 1)
                fill = None if self.stackfill is None else bytes([self.stackfill]) * size
                self.stack[n] = self.mem.alloc(size, al, fill, guard=16, init=fill is not None)
        for v, a in zip(fn["input"], args):
            self.regs[v] = a & mask(self.width(v))
        self.flags.clear()
        stmts, labels = fn["stmts"], fn["labels"]
        code = self.code.setdefault(fname, [None] * len(stmts))
        pc = steps = 0
        try:
            while pc >= 0:
                c = code[pc]
                if c is None:
                    c = code[pc] = self.compile(stmts[pc], labels)
                steps += 1
                pc = c(pc + 1)
        except Undefined as e:
            raise Undefined(f"{self.p.path}:{stmts[pc][1]}: {e}") from None
        except KeyError as e:
            raise Undefined(f"{self.p.path}:{stmts[pc][1]}: {e} read before it is written") from None
        finally:
            self.steps += steps
            self.p.steps = getattr(self.p, "steps", 0) + steps
        out = fn["output"]
        return None if out is None else self.get(("var", out))

    # ---- precompiled statements: the hot scalar shapes become closures
    # (decoded once, operands resolved to register-dict accesses); every
    # other statement runs through exec().  Both compute the same thing:
    # the closures are a cache of exec's decisions, not a second semantics.
    FAST = {"move", "bin+", "bin-", "bin&", "bin|", "bin^", "bin*", "bin<<", "bin>>", "bin<<<", "bin>>>",
            "not", "neg", "andn"}

    def decode(self, shape: str):
        d = self._dec.get(shape)
        if d is None:
            cast = lanes = None
            m = re.match(r"\( (\w+) \) ", shape)
            sh = shape
            if m:
                cast, sh = m.group(1), sh[m.end():]
            m = re.match(r"(\d+)x ", sh)
            if m:
                lanes, sh = int(m.group(1)), sh[m.end():]
            core = qsem.CORE.get(sh)
            if core is None and sh.startswith(", $ ") and sh[4:] in qsem.CORE:
                core = ("lo128:" + qsem.CORE[sh[4:]][0],)     # `Nx , 0 r = ...` (VEX.128 forms)
            d = self._dec[shape] = (cast, lanes, core[0] if core else None)
        return d

    def isint(self, o) -> bool:
        return o[0] == "var" and self.p.vars[o[1]][0] in ("int32", "int64")

    def getter(self, o, w: int):
        regs, m = self.regs, mask(w)
        if o[0] == "imm":
            v = o[1] & m
            return lambda: v
        if self.isint(o):
            n = o[1]
            return lambda: regs[n] & m
        a = self.addresser(o)
        if a:
            load, bits, e = self.mem.load, o[1], o[2]
            return lambda: load(a(), bits, e) & m
        return lambda: self.get(o, w)

    def addresser(self, o):
        """a closure computing the address of a memory operand (None: use addr())"""
        if o[0] != "mem" or (o[1] == 128 and self.target.startswith("ppc")):
            return None
        _, width, endian, base, index, scale, disp, sym = o
        regs, pm = self.regs, mask(self.ptr)
        k = disp + (self.constaddr[sym] if sym is not None else 0)
        if base is not None and index is not None:
            return lambda: (k + regs[base] + regs[index] * scale) & pm
        if base is not None:
            return lambda: (k + regs[base]) & pm
        if index is not None:
            return lambda: (k + regs[index] * scale) & pm
        return lambda: k & pm

    def putter(self, o):
        regs = self.regs
        if self.isint(o):
            n, m = o[1], mask(self.width(o[1]))
            def put(v):
                regs[n] = v & m
            return put
        a = self.addresser(o)
        if a:
            store, bits, e = self.mem.store, o[1], o[2]
            return lambda v: store(a(), bits, e, v)
        return lambda v: self.put(o, v)

    def compile(self, s, labels):
        if s[0] == "leave":
            return lambda nxt: -1
        _, ln, shape, ops, cond = s
        cast, lanes, op = self.decode(shape)
        if op == "goto":
            t = labels[ops[0][1]]
            return lambda nxt: t
        if op is not None and op.startswith("cgoto:"):
            t, c, fl = labels[ops[0][1]], op[6:], self.flags
            def cgoto(nxt):
                v = fl.get(c)
                if v is None:
                    self.cond(c)
                return t if v else nxt
            return cgoto
        vec = lanes or any(o[0] == "var" and self.isvec(o[1]) for o in ops)
        signed = cast in ("int64", "int32") and op in ("bin>>", "move")
        if cond is None and not vec and op in self.FAST and (cast in (None, "uint32") or signed):
            return self.compile_scalar(op, cast, ops)
        vec = bool(vec)
        def generic(nxt):
            j = self.exec_d(s, cast, lanes, op, vec)
            return nxt if j is None else labels[j]
        return generic

    def compile_scalar(self, op, cast, ops):
        d = ops[0]
        w = 32 if cast in ("uint32", "int32") else self.opwidth(d)
        m = mask(w)
        put = self.putter(d)
        if op == "move" and cast in ("int64", "int32"):      # sign extension from the source width
            sw = self.opwidth(ops[1])
            a, top, dm = self.getter(ops[1], sw), 1 << (sw - 1), mask(64 if cast == "int64" else 32)
            def sxmove(nxt):
                v = a()
                put((v - (top << 1) if v & top else v) & dm)
                return nxt
            return sxmove
        if op == "move":
            a = self.getter(ops[1], w)
            def move(nxt):
                put(a())
                return nxt
            return move
        a = self.getter(ops[1], w)
        if op == "not":
            def f_not(nxt):
                put(~a() & m)
                return nxt
            return f_not
        if op == "neg":
            def f_neg(nxt):
                put(-a() & m)
                return nxt
            return f_neg
        b = self.getter(ops[2], w)
        if op == "andn":
            def f_andn(nxt):
                put(~a() & b() & m)
                return nxt
            return f_andn
        o = op[3:]
        if o == ">>" and cast in ("int64", "int32"):
            f = qsem.sar
        else:
            f = {"+": lambda x, y, w: (x + y) & m, "-": lambda x, y, w: (x - y) & m,
                 "&": lambda x, y, w: x & y, "|": lambda x, y, w: x | y,
                 "^": lambda x, y, w: x ^ y}.get(o) or qsem.BINOP[o]
        def binop(nxt):
            put(f(a(), b(), w))
            return nxt
        return binop

    def exec(self, s):
        cast, lanes, op = self.decode(s[2])
        return self.exec_d(s, cast, lanes, op, lanes or any(o[0] == "var" and self.isvec(o[1]) for o in s[3]))

    def exec_d(self, s, cast, lanes, op, vec):
        """one statement, decoded (decode()) and with vec: does it touch a vector"""
        _, ln, shape, ops, cond = s
        if op is None:
            raise Undefined(f"statement shape '{shape}' has no reference semantics")
        if op.startswith("cgoto:"):
            return ops[0][1] if self.cond(op[6:]) else None
        if op == "goto":
            return ops[0][1]
        if op.startswith("cmov:"):
            if self.cond(op[5:]):
                self.put(ops[0], self.get(ops[1]))
            return None
        if op.startswith("lo128:"):
            return self.lo128(op[6:], cast, lanes, ops)
        fl = self.vexec(op, cast, lanes, ops) if vec else self.sexec(op, cast, ops)
        if cond is not None:
            if fl is None or cond not in fl:
                raise Undefined(f"'{cond}?' on a statement that does not define it")
            cls = qsem.CLASS[cond]
            flags = self.flags
            for c in qsem.CONDS:
                if qsem.CLASS[c] == cls:
                    if c in fl:
                        flags[c] = fl[c]
                    else:
                        flags.pop(c, None)
        return None

    def lo128(self, op, cast, lanes, ops):
        """`Nx , 0 r = s OP t`: OP on the low 128 bits of the operands (N lanes
        there), the result's upper bits zero"""
        if ops[0] != ("imm", 0):
            raise Undefined("', N' after a lane count must be ', 0'")
        tmp = []
        for k, o in enumerate(ops[1:]):
            if o[0] == "var" and self.isvec(o[1]):
                n = f"__lo{k}"
                self.p.vars.setdefault(n, ("reg128", 1))
                if k:
                    self.regs[n] = self.vget(o, 0)[:16]
                o = ("var", n)
            tmp.append(o)
        self.vexec(op, cast, lanes, tmp)
        d = ops[1]
        self.put(d, self.regs.pop("__lo0") + bytes(self.opwidth(d) // 8 - 16))
        return None

    def cond(self, c: str) -> bool:
        if c not in self.flags:
            raise Undefined(f"condition '{c}' read but not set by a '{qsem.CLASS[c]}'-class prefix")
        return self.flags[c]

    # ---- scalar statements
    def sexec(self, op, cast, ops):
        d = ops[0]
        if op in ("repmovsb", "repstosb"):
            return self.rep(op, ops)
        if op == "prefetch":
            return None                   # a cache hint: no state changes
        if op == "addr":
            self.put(d, self.addr(ops[1]) if ops[1][0] == "mem" else self.stack[ops[1][1]])
            return None
        if op in ("cmp", "test"):
            w = self.opwidth(d)
            a, b = self.get(ops[0], w), self.get(ops[1], w)
            return qsem.flags_sub(a, b, w) if op == "cmp" else qsem.flags_logic(a & b, w)
        if op == "wide":
            h, l, a, b = ops
            w = self.opwidth(a)
            x, y = self.get(a, w), self.get(b, w)
            if cast and cast.startswith("int"):
                x, y = sx(x, w), sx(y, w)
            p = x * y & mask(2 * w)
            self.put(l, p & mask(w))
            self.put(h, p >> w)
            return None
        w = 32 if cast in ("uint32", "int32") else self.opwidth(d)
        if cast == "int64" and op == "move":
            sw = self.opwidth(ops[1])
            self.put(d, sx(self.get(ops[1], sw), sw) & mask(64))
            return None
        if cast == "int32" and op == "move":
            sw = self.opwidth(ops[1])
            self.put(d, sx(self.get(ops[1], sw), sw) & mask(32))
            return None
        if op == "move":
            self.put(d, self.get(ops[1], w))
            return None
        if op == "not":
            self.put(d, ~self.get(ops[1], w) & mask(w))
            return None
        if op == "neg":
            s = self.get(ops[1], w)
            self.put(d, -s & mask(w))
            return qsem.flags_sub(0, s, w)
        if op == "andn":
            s, t = self.get(ops[1], w), self.get(ops[2], w)
            r = ~s & t & mask(w)
            self.put(d, r)
            return qsem.flags_logic(r, w)
        if op == "add3":
            self.put(d, sum(self.get(o, w) for o in ops[1:4]) & mask(w))
            return None
        if op == "shrand":
            r = qsem.shr(self.get(ops[1], w), ops[2][1], w) & self.get(ops[3], w)
            self.put(d, r)
            return {"=": r == 0, "!=": r != 0}
        if op in ("shld", "shrd"):
            r, t, n = self.get(ops[1], w), self.get(ops[2], w), self.get(ops[3], w)
            if not 0 <= n < w:
                raise Undefined(f"{op} count {n} outside 0..{w - 1}")
            v = (r << w | t) << n >> w if op == "shld" else (t << w | r) >> n
            self.put(d, v & mask(w))
            return None
        if op == "popcount":
            self.put(d, bin(self.get(ops[1], w)).count("1"))
            return None
        if op in ("adc", "sbb", "adox"):
            s, t = self.get(ops[1], w), self.get(ops[2], w)
            c = int(self.cond("overflow" if op == "adox" else "carry"))
            if op == "adc":
                self.put(d, s + t + c & mask(w))
                return qsem.flags_add(s, t, w, c)
            if op == "adox":
                self.put(d, s + t + c & mask(w))
                return qsem.flags_adox(s, t, w, c)
            self.put(d, s - t - c & mask(w))
            return qsem.flags_sub(s, t, w, c)
        if op.startswith("bin"):
            o = op[3:]
            s, t = self.get(ops[1], w), self.get(ops[2], w)
            if o == ">>" and cast in ("int64", "int32"):
                r = qsem.sar(s, t, w)
                self.put(d, r)
                return qsem.flags_shift(r, t, w)
            else:
                r = qsem.BINOP[o](s, t, w)
            self.put(d, r)
            f = qsem.BINFLAGS.get(o)
            return f(s, t, w) if f else None
        raise Undefined(f"operation {op} on integers")

    def rep(self, op, ops):
        """repmovsb / repstosb: a byte loop upwards (the direction flag is
        clear by the ABI); every byte must be inside allocated memory"""
        pm = mask(self.ptr)
        dv, x, c = (self.get(o, self.ptr) for o in ops)
        if c > 1 << 16:
            raise Undefined(f"{op} count {c} (the interpreter allows at most 65536)")
        for k in range(c):
            b = self.mem.read(x + k & pm, 1) if op == "repmovsb" else bytes([x & 255])
            self.mem.write(dv + k & pm, b)
        self.put(ops[0], dv + c & pm)
        if op == "repmovsb":
            self.put(ops[1], x + c & pm)
        self.put(ops[2], 0)
        return None

    # ---- vector statements
    def vexec(self, op, cast, lanes, ops):
        d = ops[0]
        nb = self.opwidth(d) // 8
        big = self.big
        if op.startswith("vf:"):
            name = op[3:]
            args = []
            for o in ops[1:]:
                if o[0] == "imm":
                    args.append(o[1])
                elif name == "loadperm":
                    args.append(None)
                else:
                    args.append(self.vget(o, nb))
            a = self.addr(ops[1]) if name == "loadperm" else 0
            r = qsem.vfunc(name, args, big, nb, a)
            self.put(d, int.from_bytes(r, "little") if self.isint(d) else r)   # movemask8: a vector to an integer
            return None
        if op == "movlo":
            v = self.vget(ops[1], nb)
            if ops[2] != ("imm", 0):
                raise Undefined("'r = m , N' needs N = 0")
            self.put(d, v + bytes(nb - len(v)))
            return None
        if op == "splat":
            lw = nb * 8 // lanes if lanes else 32     # the Nx prefix's lane width
            v = qsem.lanes(self.vget(ops[1], nb), lw, big)[ops[2][1]]
            self.put(d, qsem.unlanes([v] * (nb * 8 // lw), lw, big))
            return None
        isv = lambda o: o[0] == "var" and self.isvec(o[1])
        if op == "move":
            s = ops[1]
            if lanes:                       # broadcast
                lw = nb * 8 // lanes
                v = self.get(s, lw) if s[0] != "imm" else s[1] & mask(lw)
                self.put(d, qsem.unlanes([v] * lanes, lw, big))
            elif isv(d) and isv(s):
                self.put(d, self.vget(s, nb))
            elif isv(d) and s[0] == "imm":
                if s[1] != 0:
                    raise Undefined("a vector register takes only the immediate 0")
                self.put(d, bytes(nb))
            elif isv(d) and self.ismem(s) and self.memof(s)[1] == nb * 8:
                self.put(d, self.vget(s, nb))
            elif isv(d):                    # lane 0 from an integer or narrower memory, rest 0
                w = self.opwidth(s)
                self.put(d, qsem.unlanes([self.get(s, w)], w, big) + bytes(nb - w // 8))
            else:                           # integer or memory from lane 0
                w = 32 if cast == "uint32" else self.opwidth(d)
                b = self.vget(s, 0)
                if self.ismem(d):
                    self.put(d, b[:w // 8])
                else:
                    self.put(d, qsem.lanes(b[:w // 8], w, big)[0])
            return None
        if op in ("bin^", "bin&", "bin|", "andn") and not lanes:
            s = self.vget(ops[1], nb)
            t = self.vget(ops[2], nb)
            x, y = int.from_bytes(s, "little"), int.from_bytes(t, "little")
            r = {"bin^": x ^ y, "bin&": x & y, "bin|": x | y, "andn": ~x & y & mask(8 * len(s))}[op]
            self.put(d, r.to_bytes(len(s), "little"))
            return None
        if not lanes:
            raise Undefined(f"vector operation {op} without a lane count")
        lw = nb * 8 // lanes
        L = lambda b: qsem.lanes(b, lw, big)
        if op == "madd":
            s, t, u = (L(self.vget(o, nb)) for o in ops[1:4])
            self.put(d, qsem.unlanes([(x * y + z) & mask(lw) for x, y, z in zip(s, t, u)], lw, big))
            return None
        if op == "popcount":                # each lane's number of one bits (vpopcntq)
            self.put(d, qsem.unlanes([bin(x).count("1") for x in L(self.vget(ops[1], nb))], lw, big))
            return None
        if op == "maddwdacc":
            # 32-bit lanes: u + the pair sums of the int16 lanes of s and t, mod 2^32
            u = L(self.vget(ops[1], nb))
            pr = qsem.vfunc("maddwd", [self.vget(o, nb) for o in ops[2:4]], big, nb, 0)
            self.put(d, qsem.unlanes([x + y for x, y in zip(u, L(pr))], lw, big))
            return None
        if op in ("madd52lo", "madd52hi"):
            r, s, t = (L(self.vget(o, nb)) for o in ops[1:4])
            sh = 0 if op.endswith("lo") else 52
            out = [a + (((x & mask(52)) * (y & mask(52))) >> sh & mask(52)) for a, x, y in zip(r, s, t)]
            self.put(d, qsem.unlanes(out, lw, big))
            return None
        if op.startswith("bin"):
            o = op[3:]
            s = L(self.vget(ops[1], nb))
            if ops[2][0] == "imm":
                t = [ops[2][1]] * lanes
            else:
                t = L(self.vget(ops[2], nb))
            m, m32 = mask(lw), mask(32)
            if o == "*":
                out = [(x & m32) * (y & m32) & m for x, y in zip(s, t)]
            elif o == "+":
                out = [x + y for x, y in zip(s, t)]           # unlanes reduces modulo 2^lw
            elif o == "-":
                out = [x - y for x, y in zip(s, t)]
            elif o == ">>" and cast in ("int8", "int16", "int32", "int64"):   # a signed cast: arithmetic
                out = [qsem.sar(x, y, lw) for x, y in zip(s, t)]
            else:
                out = [qsem.BINOP[o](x, y, lw) for x, y in zip(s, t)]
            self.put(d, qsem.unlanes(out, lw, big))
            return None
        raise Undefined(f"vector operation {op}")


def run(text: str, target: str, fname: str, args: list[int], mem: Memory | None = None):
    it = Interp(Prog(text), target, mem)
    return it.call(fname, args), it


def main(argv: list[str]) -> int:
    target = "amd64"
    if "--target" in argv:
        i = argv.index("--target")
        target = argv[i + 1]
        del argv[i:i + 2]
    path, fname, *args = argv
    with open(path) as f:
        r, _ = run(f.read(), target, fname, [int(a, 0) for a in args])
    print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
