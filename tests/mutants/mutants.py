#!/usr/bin/env python3
"""make mutants: mutation testing of core/ against the fast suites.

Deterministic operators over the C code of core/*.c and over the function
bodies in core/*.h (the inline definitions: the walks' common paths, the
iterators, the primitives, the BPF-output view), never over comments, so
never over ACSL, nor over #include/#if lines:
  REL    relational flips: < <-> <=, > <-> >=, < <-> >=, > <-> <=, == <-> !=
  CONST  integer constant +1, -1, +8, -8 (no negative results)
  COND   dropped condition: if (c) -> if (0) and if (1)
  STORE  dropped store: an assignment statement (x = e; x->f |= e; *p = e;)
  RETURN dropped early return: a return that is not the last statement of
         its function (inside a block or the body of an if/else)
Each mutant is written into a scratch copy of core/, only the mutated file is
recompiled (gcc, ASan+UBSan, like the fuzz replay builds), every fast-suite
binary is relinked against it and run until one fails (a header's mutant:
every object whose source includes it is recompiled, core, tests, harnesses
and the adapter objects a binary takes from the archive, binary by binary):
  the cmocka unit tests (tests/unit), the parser unit tests (tests/parsers),
  the ringbuf/backward unit tests (tests/ringbuf), the user ring unit tests
  (tests/user_ring/test_user_ring_unit) and the committed fuzz corpora replayed through each harness (fuzz/replay_main.c).
A mutant that passes them all runs the cmocka suites once more, built without
sanitizers, under valgrind memcheck (as make check does): ASan does not see
reads of uninitialised memory.
A mutant is KILLED when a suite fails (a test, a sanitizer, memcheck, an
oracle, a crash or a timeout), SURVIVED when all pass, BUILD-FAILED when it does not
compile, SAME-CODE when gcc -O2 emits the same object as for the original
(equivalent by construction: dead code, #if branches not compiled, ...; for
a header, asked first, of every source that includes it and names the mutated
function or an inline function that calls it: a function named only inside a
header's macro would be missed, and none is).
tests/mutants/equivalent.txt lists survivors that are equivalent, each with
why; the score excludes them and the SAME-CODE ones:
  score = killed / (killed + survived - listed equivalents)

  tests/mutants/mutants.py [--build DIR] [--jobs N] [--every K] [--files a.c,b.c]
                           [--match TEXT] [--ids FILE] [--list]
--every K runs every K-th mutant of each file (deterministic sample).
"""
import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
CFLAGS = ["-std=c11", "-D_GNU_SOURCE", "-g", "-O1", "-fno-omit-frame-pointer", "-w"]
INCS = ["-I.", "-Icore", "-Iadapters/linux", "-Ifuzz"]
NICE = ["nice", "-n", "15"]
RUN_TIMEOUT = 60


# ---------------------------------------------------------------- operators
def code_mask(src):
    """src with comments, string/char literals and preprocessor directives
    (other than the body of a #define) blanked out; newlines kept."""
    out = list(src)
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if line_start and src[i:].lstrip(" \t").startswith("#"):
            j = src.index("#", i)
            end = i
            while True:  # directive with continuations
                e = src.find("\n", end)
                e = n if e < 0 else e
                if e > 0 and src[e - 1] == "\\":
                    end = e + 1
                    continue
                break
            m = re.match(r"#\s*define\s+\w+(\([^)]*\))?", src[j:e])
            blank_to = j + m.end() if m else e
            for k in range(i, blank_to):
                if out[k] != "\n":
                    out[k] = " "
            # the #define body stays code, but its comments are still blanked
            i = blank_to
            line_start = False
            if not m:
                continue
        c = src[i] if i < n else ""
        if src.startswith("/*", i):
            e = src.find("*/", i + 2)
            e = n if e < 0 else e + 2
            for k in range(i, e):
                if out[k] != "\n":
                    out[k] = " "
            i = e
            continue
        if src.startswith("//", i):
            e = src.find("\n", i)
            e = n if e < 0 else e
            for k in range(i, e):
                out[k] = " "
            i = e
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j + 1
            continue
        if c == "\n":
            line_start = True
        elif c not in " \t":
            line_start = False
        i += 1
    return "".join(out)


def functions(mask):
    """[(start, end, name)] of top-level brace blocks that are function bodies."""
    res, depth, start, name = [], 0, 0, None
    top = 0  # the depth of the top level: 1 inside a header's extern "C" { }
    last_top = 0
    for i, c in enumerate(mask):
        if c == "{":
            if depth == top:
                head = mask[last_top:i]
                if head.split() == ["extern"]:  # extern "C" {: the string is blanked
                    top += 1
                    depth += 1
                    last_top = i + 1
                    continue
                m = re.findall(r"(\w+)\s*\(", head)
                name = m[-1] if m and "=" not in head else None
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < top:  # the end of extern "C"
                top = depth
                last_top = i + 1
            elif depth == top:
                if name:
                    res.append((start, i + 1, name))
                last_top = i + 1
        elif c == ";" and depth == top:
            last_top = i + 1
    return res


def match_paren(mask, i):
    """index just past the ')' matching the '(' at i."""
    d = 0
    for j in range(i, len(mask)):
        if mask[j] == "(":
            d += 1
        elif mask[j] == ")":
            d -= 1
            if d == 0:
                return j + 1
    return -1


REL_FLIPS = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
             "==": ["!="], "!=": ["=="]}
LVALUE = re.compile(r"^\s*(\*+\s*)?\(?\s*[A-Za-z_]\w*(\s*(\.|->)\s*\w+|\s*\[[^\]]*\])*\s*\)?\s*$")


def statement_start(mask, i):
    """start of the statement that contains position i (after ; { } or the
    ')' of an if/for/while head, or 'else')."""
    j = i - 1
    while j >= 0:
        c = mask[j]
        if c in ";{}":
            return j + 1
        if c == ")":
            # is this the end of an if/while/for head?
            d, k = 0, j
            while k >= 0:
                if mask[k] == ")":
                    d += 1
                elif mask[k] == "(":
                    d -= 1
                    if d == 0:
                        break
                k -= 1
            if re.search(r"\b(if|while|for)\s*$", mask[:k]):
                return j + 1
            j = k - 1
            continue
        if mask[j - 3:j + 1] == "else" and (j - 4 < 0 or not (mask[j - 4].isalnum() or mask[j - 4] == "_")):
            return j + 1
        j -= 1
    return 0


def gen_mutants(path):
    src = open(path).read()
    mask = code_mask(src)
    funcs = functions(mask)
    muts = []

    def func_at(pos):
        for s, e, name in funcs:
            if s <= pos < e:
                return name
        return "-"

    def add(op, start, end, new, what):
        muts.append((op, start, end, new, what))

    # REL
    for m in re.finditer(r"<<=|>>=|<<|>>|->|<=|>=|==|!=|<|>", mask):
        tok = m.group(0)
        if tok in REL_FLIPS:
            for new in REL_FLIPS[tok]:
                add("REL", m.start(), m.end(), new, "%s -> %s" % (tok, new))
    # CONST
    for m in re.finditer(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])", mask):
        lit, suf = m.group(1), m.group(2)
        v = int(lit, 16) if lit[:2].lower() == "0x" else int(lit)
        for d in (1, -1, 8, -8):
            nv = v + d
            if nv < 0:
                continue
            txt = (hex(nv) if lit[:2].lower() == "0x" else str(nv)) + suf
            add("CONST", m.start(), m.end(), txt, "%s -> %s" % (lit + suf, txt))
    # COND
    for m in re.finditer(r"\bif\s*\(", mask):
        o = m.end() - 1
        c = match_paren(mask, o)
        if c < 0:
            continue
        for new in ("0", "1"):
            add("COND", o + 1, c - 1, new, "if (...) -> if (%s)" % new)
    # STORE and RETURN: statements ending in ';'
    for m in re.finditer(r";", mask):
        end = m.end()
        st = statement_start(mask, m.start())
        text = mask[st:m.start()]
        if not text.strip():
            continue
        lead = len(text) - len(text.lstrip())
        s0 = st + lead
        body = text.strip()
        # blank the statement but keep its line count
        blank = ";" + "\n" * src[s0:end].count("\n")
        if re.match(r"return\b", body):
            # early return: not directly in the function's outermost block,
            # or the body of an if/else
            # braces counted from the function's own (a header's extern "C"
            # block is not one): 1 is its outermost block
            fs = next((a for a, b, _ in funcs if a <= s0 < b), 0)
            depth = mask[fs:s0].count("{") - mask[fs:s0].count("}")
            prev = mask[:s0].rstrip()
            if depth >= 2 or prev.endswith(")") or prev.endswith("else"):
                add("RETURN", s0, end, blank, "drop '%s'" % " ".join(body.split()))
            continue
        am = re.search(r"(?<![=!<>+\-*/%&|^])([+\-*/%&|^]|<<|>>)?=(?!=)", body)
        if am and LVALUE.match(body[:am.start()]) and not re.match(r"(for|while|if)\b", body):
            if "(" in body[:am.start()] and not body.startswith("("):
                continue
            add("STORE", s0, end, blank, "drop '%s'" % " ".join(body.split()))

    out, seen = [], set()
    base_lines = src.split("\n")
    counts = {}
    for op, s, e, new, what in sorted(muts, key=lambda t: (t[1], t[0], t[3])):
        text = src[:s] + new + src[e:]
        h = hashlib.sha1(text.encode()).hexdigest()
        if h in seen or text == src:
            continue
        seen.add(h)
        line = src.count("\n", 0, s) + 1
        fn = func_at(s)
        ltxt = " ".join(base_lines[line - 1].split())
        key = (fn, op, what, ltxt)
        k = counts.get(key, 0)
        counts[key] = k + 1
        mid = "%s:%s:%s:%s%s | %s" % (os.path.basename(path), fn, op, what,
                                      "" if k == 0 else " #%d" % k, ltxt)
        out.append({"id": mid, "file": os.path.basename(path), "line": line, "text": text, "fn": fn})
    return out


# ---------------------------------------------------------------- builds
def sh(cmd, timeout=None, cwd=ROOT):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace")


def flavors():
    """core compile variants: '' (plain) and one per fuzz/harness_<h>.flags"""
    fl = {"": []}
    for f in sorted(os.listdir(os.path.join(ROOT, "fuzz"))):
        m = re.match(r"harness_(\w+)\.flags$", f)
        if m:
            fl[m.group(1)] = shlex.split(open(os.path.join(ROOT, "fuzz", f)).read())
    return fl


def harnesses():
    return sorted(re.match(r"harness_(\w+)\.c$", f).group(1)
                  for f in os.listdir(os.path.join(ROOT, "fuzz")) if re.match(r"harness_\w+\.c$", f))


class Base:
    """Objects shared by every mutant, built once under DIR/base."""

    def __init__(self, build):
        self.dir = os.path.join(build, "base")
        self.fl = flavors()
        self.core = sorted(f for f in os.listdir(os.path.join(ROOT, "core")) if f.endswith(".c"))

    def cc(self, src, obj, extra=(), san=True):
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        return sh(NICE + ["gcc"] + CFLAGS + (SAN if san else []) + INCS + list(extra) +
                  ["-c", src, "-o", obj])

    def core_obj(self, root, flavor, f):
        return os.path.join(root, "core-" + (flavor or "plain"), f[:-2] + ".o")

    def build(self, jobs):
        os.makedirs(self.dir, exist_ok=True)
        rc, out = sh(["make", "--no-print-directory", "-s", "BUILD=" + os.path.relpath(
            os.path.dirname(self.dir)), os.path.relpath(os.path.join(os.path.dirname(self.dir),
                                                                    "unit", "status_codes.h"))])
        if rc:
            sys.exit("status_codes.h: " + out)
        unit_gen = os.path.join(os.path.dirname(self.dir), "unit")
        tasks = []
        for flv, extra in self.fl.items():
            for f in self.core:
                tasks.append((os.path.join("core", f), self.core_obj(self.dir, flv, f), extra))
        d = self.dir
        self.bins = []  # (name, [objs with None = core], libs)
        units = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "tests/unit"))
                       if f.startswith("test_") and f.endswith(".c"))
        ui = ["-Itests/unit", "-I" + unit_gen]
        tasks.append(("tests/unit/ring_builder.c", d + "/t/ring_builder.o", ui))
        for u in units:
            tasks.append(("tests/unit/%s.c" % u, d + "/t/%s.o" % u, ui))
            self.bins.append(("unit/" + u, [d + "/t/%s.o" % u, d + "/t/ring_builder.o"], "", ["-lcmocka"]))
        tasks.append(("tests/parsers/test_parsers.c", d + "/t/test_parsers.o", ["-Itests/parsers"]))
        self.bins.append(("parsers/test_parsers", [d + "/t/test_parsers.o"], "", ["-lcmocka"]))
        ri = ["-Itests/ringbuf"]
        tasks.append(("tests/ringbuf/test_ringbuf_unit.c", d + "/t/test_ringbuf_unit.o", ri))
        tasks.append(("tests/ringbuf/rb_builder.c", d + "/t/rb_builder.o", ri))
        self.bins.append(("ringbuf/test_ringbuf_unit", [d + "/t/test_ringbuf_unit.o", d + "/t/rb_builder.o"],
                          "", ["-lcmocka"]))
        tasks.append(("tests/user_ring/test_user_ring_unit.c", d + "/t/test_user_ring_unit.o",
                      ["-Itests/user_ring"]))
        self.bins.append(("user_ring/test_user_ring_unit", [d + "/t/test_user_ring_unit.o"], "", ["-lcmocka"]))
        common = ["fuzz/fz_util.c", "fuzz/fz_oracle.c", "fuzz/ref_decoder.c", "fuzz/replay_main.c"]
        for h in harnesses():
            flv = h if h in self.fl else ""
            extra = self.fl[flv]
            objs = []
            for s in ["fuzz/harness_%s.c" % h] + common:
                o = d + "/f-%s/%s.o" % (flv or "plain", os.path.basename(s)[:-2])
                if not any(t[1] == o for t in tasks):
                    tasks.append((s, o, extra))
                objs.append(o)
            self.bins.append(("replay/" + h, objs, flv, []))
        # adapters are not mutated; an archive resolves what a test may use
        ad = sorted(f for f in os.listdir(os.path.join(ROOT, "adapters/linux")) if f.endswith(".c"))
        for f in ad:
            tasks.append(("adapters/linux/" + f, d + "/a/" + f[:-2] + ".o", []))
        # the cmocka binaries once more without sanitizers, for valgrind
        # (memcheck sees reads of uninitialised memory, which ASan does not)
        vg = []
        for src, obj, extra in tasks:
            if obj.startswith(d + "/t/") or obj.startswith(d + "/a/") or \
               obj.startswith(os.path.join(d, "core-plain")):
                vg.append((src, obj.replace(d + "/", d + "/vg/", 1), extra, False))
        self.vg_bins = [b for b in self.bins if not b[0].startswith("replay/")]
        tasks = [t + (True,) for t in tasks] + vg
        with cf.ThreadPoolExecutor(jobs) as ex:
            for t, (rc, out) in zip(tasks, ex.map(lambda t: self.cc(*t), tasks)):
                if rc:
                    sys.exit("base build failed: %s\n%s" % (t[0], out))
        for sub in ("", "vg/"):
            lib = d + "/" + sub + "a/libadapters.a"
            if os.path.exists(lib):
                os.unlink(lib)
            rc, out = sh(["ar", "rcs", lib] + [d + "/" + sub + "a/" + f[:-2] + ".o" for f in ad])
            if rc:
                sys.exit(out)
        self.adapters = d + "/a/libadapters.a"
        # for the mutants of a header: which core headers each object's
        # source includes, and which adapter objects each binary takes from
        # the archive (the inline definitions are compiled into all of them)
        self.src_of = {t[1]: t for t in tasks}
        srcs = sorted(set((t[0], tuple(t[2])) for t in tasks))
        with cf.ThreadPoolExecutor(jobs) as ex:
            outs = list(ex.map(lambda t: sh(["gcc", "-MM", "-std=c11", "-D_GNU_SOURCE"] + INCS +
                                            list(t[1]) + [t[0]]), srcs))
        self.deps = {}
        for (src, _), (rc, out) in zip(srcs, outs):
            if rc:
                sys.exit("gcc -MM %s failed:\n%s" % (src, out))
            self.deps[src] = set(os.path.basename(w) for w in out.replace("\\\n", " ").split()
                                 if re.match(r"(\./)?core/\w+\.h$", w))
        # the inline functions of the headers, and which of them each one
        # names (a mutated body is compiled only where it, or a function
        # that calls it, is named)
        self.inline = {}
        for h in sorted(f for f in os.listdir(os.path.join(ROOT, "core")) if f.endswith(".h")):
            mask = code_mask(open(os.path.join(ROOT, "core", h)).read())
            for st, en, name in functions(mask):
                self.inline[name] = set(re.findall(r"\b\w+\b", mask[st:en]))
        self.words = {}
        self.pulled = {}
        for bn, objs, flv, libs in self.bins:
            core = [self.core_obj(d, flv, f) for f in self.core]
            rc, out = sh(["gcc"] + SAN + ["-o", d + "/trace.out"] + objs + core +
                         [self.adapters, "-lbpf", "-lelf", "-lz", "-lpthread"] + libs +
                         ["-Wl,--trace"])
            if rc:
                sys.exit("link %s failed:\n%s" % (bn, out))
            self.pulled[bn] = sorted(set(re.findall(r"libadapters\.a\((\w+\.o)\)", out)))

    def callers_of(self, fn):
        """fn and every inline function that calls it, directly or not."""
        names, grew = {fn}, True
        while grew:
            grew = False
            for g, words in self.inline.items():
                if g not in names and words & names:
                    names.add(g)
                    grew = True
        return names

    def names_any(self, src, names):
        if src not in self.words:
            self.words[src] = set(re.findall(r"\b\w+\b", code_mask(open(os.path.join(ROOT, src)).read())))
        return bool(self.words[src] & names)


class Worker:
    def __init__(self, base, wdir):
        self.b = base
        self.dir = wdir
        self.core = os.path.join(wdir, "core")
        if os.path.exists(wdir):
            shutil.rmtree(wdir)
        shutil.copytree(os.path.join(ROOT, "core"), self.core)
        # for the mutants of a header: its scratch copy before core/
        self.incs = ["-I.", "-I" + self.core] + INCS[1:]

    def link(self, name, mfile, vg=False):
        b, (bn, objs, flv, libs) = self.b, name
        bd = b.dir + "/vg" if vg else b.dir
        wd = self.dir + "/vg" if vg else self.dir
        if vg:
            objs = [o.replace(b.dir + "/", b.dir + "/vg/", 1) for o in objs]
        core = [(os.path.join(wd, "obj-" + (flv or "plain"), f[:-2] + ".o") if f == mfile
                 else b.core_obj(bd, flv, f)) for f in b.core]
        out = os.path.join(wd, "bin", bn)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        rc, log = sh(NICE + ["gcc"] + ([] if vg else SAN) + ["-o", out] + objs + core +
                     [bd + "/a/libadapters.a", "-lbpf", "-lelf", "-lz", "-lpthread"] + libs)
        return rc, log, out

    def run_bin(self, bn, exe, vg=False):
        if bn.startswith("replay/"):
            h = bn.split("/", 1)[1]
            dirs = [d for d in ("fuzz/corpus/" + h, "fuzz/regressions/" + h)
                    if os.path.isdir(os.path.join(ROOT, d)) and os.listdir(os.path.join(ROOT, d))]
            if not dirs:
                return 0, "no inputs"
            cmd = [exe] + dirs
        else:
            cmd = [exe]
        if vg:
            cmd = ["valgrind", "-q", "--error-exitcode=99", "--exit-on-first-error=yes"] + cmd
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", CMOCKA_MESSAGE_OUTPUT="STDOUT")
        try:
            p = subprocess.run(NICE + cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=RUN_TIMEOUT, env=env)
            return p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired:
            return -999, "timeout"

    def order(self, mfile):
        """suites most likely to kill a mutant of mfile first"""
        pref = {"rp_sample.c": ["parsers/", "replay/sample"],
                "rp_records.c": ["parsers/", "replay/sample"],
                "rp_cursor.c": ["parsers/", "replay/sample"],
                "rp_ringbuf.c": ["ringbuf/", "replay/ringbuf"],
                "rp_backward.c": ["ringbuf/", "replay/backward"],
                "rp_user_ring.c": ["user_ring/", "replay/user_ring"],
                "rp_cursor.h": ["parsers/", "replay/sample"],
                "rp_ringbuf.h": ["ringbuf/", "replay/ringbuf"]}.get(mfile, ["unit/", "replay/ring_raw"])

        def rank(bn):
            for i, p in enumerate(pref):
                if bn[0].startswith(p):
                    return i
            return len(pref) + (1 if bn[0].startswith("replay/") else 0)
        return sorted(self.b.bins, key=rank)

    def rebuilt(self, obj, hdr, memo):
        """obj as the mutated header hdr builds it: compiled afresh (once per
        mutant) if its source includes hdr, else the base object."""
        b = self.b
        src, obj_rel, extra, san = b.src_of[obj]
        if hdr not in b.deps[src]:
            return obj
        if obj not in memo:
            out = os.path.join(self.dir, "h", os.path.relpath(obj, b.dir))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            # a core source from the scratch copy, so that its quoted
            # includes find the mutated header beside it
            path = os.path.join(self.core, src[5:]) if src.startswith("core/") else src
            rc, log = sh(NICE + ["gcc"] + CFLAGS + (SAN if san else []) + self.incs + list(extra) +
                         ["-c", path, "-o", out])
            if rc:
                raise BuildFailed(log.strip().split("\n")[0])
            memo[obj] = out
        return memo[obj]

    def link_header(self, name, hdr, memo, vg=False):
        """name's binary with every object that includes hdr rebuilt; the
        adapter objects it takes from the archive that include hdr are
        rebuilt and linked ahead of the archive."""
        b, (bn, objs, flv, libs) = self.b, name
        bd = b.dir + "/vg" if vg else b.dir
        if vg:
            objs = [o.replace(b.dir + "/", b.dir + "/vg/", 1) for o in objs]
        objs = objs + [b.core_obj(bd, flv, f) for f in b.core]
        objs += [bd + "/a/" + o for o in b.pulled[bn]
                 if hdr in b.deps["adapters/linux/" + o[:-2] + ".c"]]
        objs = [self.rebuilt(o, hdr, memo) for o in objs]
        out = os.path.join(self.dir, "vg" if vg else "", "hbin", bn)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        rc, log = sh(NICE + ["gcc"] + ([] if vg else SAN) + ["-o", out] + objs +
                     [bd + "/a/libadapters.a", "-lbpf", "-lelf", "-lz", "-lpthread"] + libs)
        if rc:
            raise BuildFailed(log.strip().split("\n")[0])
        return out

    def header_same_code(self, hdr, fn, mutated, orig):
        """True if gcc -O2 emits the same object for every source that
        includes hdr and names fn or an inline function that calls it, with
        the mutated header as with the original (both compiled from the same
        paths): a source that names none of them cannot compile the mutated
        body."""
        b = self.b
        names = b.callers_of(fn)
        srcs = sorted(set((t[0], tuple(t[2])) for t in b.src_of.values()
                          if hdr in b.deps[t[0]] and b.names_any(t[0], names)))
        path_h = os.path.join(self.core, hdr)
        objs = {}
        for tag, text in (("orig", orig), ("mut", mutated)):
            open(path_h, "w").write(text)
            for i, (src, extra) in enumerate(srcs):
                path = os.path.join(self.core, src[5:]) if src.startswith("core/") else src
                o = os.path.join(self.dir, "same", "%s-%d.o" % (tag, i))
                os.makedirs(os.path.dirname(o), exist_ok=True)
                rc, log = sh(NICE + ["gcc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-g0", "-w"] +
                             self.incs + list(extra) + ["-c", path, "-o", o])
                if rc:
                    raise BuildFailed(log.strip().split("\n")[0])
                objs.setdefault(i, []).append(open(o, "rb").read())
        open(path_h, "w").write(mutated)
        return all(a == b2 for a, b2 in objs.values())

    def run_header(self, m):
        """A mutant of an inline definition in a core header: every object
        that includes the header is rebuilt (core, tests, harnesses and the
        adapter objects a binary takes), binary by binary as the suites
        run.  Whether gcc -O2 emits the same code is asked first, of the
        sources that can compile the mutated body."""
        f = m["file"]
        path = os.path.join(self.core, f)
        orig = open(os.path.join(ROOT, "core", f)).read()
        memo = {}
        try:
            if self.header_same_code(f, m["fn"], m["text"], orig):
                return "SAME-CODE", ""
            open(path, "w").write(m["text"])
            for vg in (False, True):
                for bn in self.order(f):
                    if vg and bn not in self.b.vg_bins:
                        continue
                    exe = self.link_header(bn, f, memo, vg)
                    rc, out = self.run_bin(bn[0], exe, vg)
                    if rc:
                        why = "timeout" if rc == -999 else _why(out, rc)
                        if vg and rc == 99:
                            m2 = re.search(r"==\d+== (\w[^\n]*)", out)
                            why = "memcheck: " + (m2.group(1) if m2 else "error")
                        return "KILLED", "%s%s: %s" % ("valgrind " if vg else "", bn[0], why)
            return "SURVIVED", ""
        except BuildFailed as e:
            return "BUILD-FAILED", str(e)
        finally:
            open(path, "w").write(orig)

    def run(self, m, same_code_ref):
        f = m["file"]
        if f.endswith(".h"):
            return self.run_header(m)
        path = os.path.join(self.core, f)
        orig = open(os.path.join(ROOT, "core", f)).read()
        try:
            open(path, "w").write(m["text"])
            # same object code as the original at -O2?
            o2 = os.path.join(self.dir, "o2.o")
            rc, log = sh(NICE + ["gcc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-g0", "-w", "-Icore",
                                 "-c", path, "-o", o2])
            if rc:
                return "BUILD-FAILED", log.strip().split("\n")[0]
            if open(o2, "rb").read() == same_code_ref[f]:
                return "SAME-CODE", ""
            for flv, extra in self.b.fl.items():
                rc, log = self.b.cc(path, os.path.join(self.dir, "obj-" + (flv or "plain"), f[:-2] + ".o"),
                                    extra)
                if rc:
                    return "BUILD-FAILED", log.strip().split("\n")[0]
            for bn in self.order(f):
                rc, log, exe = self.link(bn, f)
                if rc:
                    return "BUILD-FAILED", log.strip().split("\n")[0]
                rc, out = self.run_bin(bn[0], exe)
                if rc:
                    why = "timeout" if rc == -999 else _why(out, rc)
                    return "KILLED", "%s: %s" % (bn[0], why)
            # survived the sanitizer builds: the cmocka suites under valgrind,
            # as make check runs them
            rc, log = self.b.cc(path, os.path.join(self.dir, "vg", "obj-plain", f[:-2] + ".o"), (), False)
            if rc:
                return "BUILD-FAILED", log.strip().split("\n")[0]
            for bn in self.order(f):
                if bn not in self.b.vg_bins:
                    continue
                rc, log, exe = self.link(bn, f, vg=True)
                if rc:
                    return "BUILD-FAILED", log.strip().split("\n")[0]
                rc, out = self.run_bin(bn[0], exe, vg=True)
                if rc:
                    why = "timeout" if rc == -999 else _why(out, rc)
                    if rc == 99:
                        m2 = re.search(r"==\d+== (\w[^\n]*)", out)
                        why = "memcheck: " + (m2.group(1) if m2 else "error")
                    return "KILLED", "valgrind %s: %s" % (bn[0], why)
            return "SURVIVED", ""
        finally:
            open(path, "w").write(orig)


class BuildFailed(Exception):
    pass


def _why(out, rc):
    for pat in (r"FUZZ ORACLE FAILURE[^\n]*", r"ERROR: \w+Sanitizer: [\w-]+", r"runtime error: [^\n]{0,60}",
                r"\[  FAILED  \][^\n]*", r"\[  ERROR   \][^\n]*", r"not ok [^\n]*"):
        m = re.search(pat, out)
        if m:
            return m.group(0).strip()
    return "exit %d" % rc


def load_equivalent():
    eq = {}
    p = os.path.join(ROOT, "tests/mutants/equivalent.txt")
    for ln in open(p):
        ln = ln.rstrip("\n")
        if not ln.strip() or ln.startswith("#"):
            continue
        mid, _, why = ln.partition("  -- ")
        eq[mid.strip()] = why.strip()
    return eq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/mutants")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--files", default="")
    ap.add_argument("--match", default="")
    ap.add_argument("--ids", default="", help="file of mutant ids to run (one a line)")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    os.chdir(ROOT)
    # the .c files, then the headers (their inline definitions only)
    files = sorted(f for f in os.listdir("core") if f.endswith(".c")) + \
        sorted(f for f in os.listdir("core") if f.endswith(".h"))
    if a.files:
        files = [f for f in files if f in a.files.split(",")]
    muts = []
    for f in files:
        ms = gen_mutants(os.path.join("core", f))
        if f.endswith(".h"):
            ms = [m for m in ms if m["fn"] != "-"]
        muts += ms[::a.every]
    if a.match:
        muts = [m for m in muts if a.match in m["id"]]
    if a.ids:
        want = set(ln.strip() for ln in open(a.ids) if ln.strip())
        muts = [m for m in muts if m["id"] in want]
    if a.list:
        for m in muts:
            print(m["id"])
        print("%d mutants" % len(muts))
        return 0
    eq = load_equivalent()
    build = os.path.abspath(a.build)
    t0 = time.time()
    base = Base(build)
    base.build(a.jobs)
    ref = {}
    for f in (f for f in files if f.endswith(".c")):
        o = os.path.join(build, "base", "o2-" + f[:-2] + ".o")
        rc, log = sh(NICE + ["gcc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-g0", "-w", "-Icore",
                             "-c", "core/" + f, "-o", o])
        if rc:
            sys.exit(log)
        ref[f] = open(o, "rb").read()
    # the unmutated build must pass every suite
    w0 = Worker(base, os.path.join(build, "w-baseline"))
    for bn, vg in [(b, False) for b in base.bins] + [(b, True) for b in base.vg_bins]:
        rc, log, exe = w0.link(bn, None, vg)
        if rc:
            sys.exit("baseline link %s failed:\n%s" % (bn[0], log))
        rc, out = w0.run_bin(bn[0], exe, vg)
        if rc:
            sys.exit("baseline %s%s fails without any mutant:\n%s" % ("valgrind " if vg else "", bn[0],
                                                                       out[-3000:]))
    print("base build + baseline run: %.0f s; %d mutants (every %d-th) over %s" %
          (time.time() - t0, len(muts), a.every, ", ".join(files)), flush=True)
    workers = [Worker(base, os.path.join(build, "w%d" % i)) for i in range(a.jobs)]
    free = list(workers)
    results = {}
    t1 = time.time()
    log = open(os.path.join(build, "results.txt"), "w")

    def job(m):
        w = free.pop()
        try:
            return m, w.run(m, ref)
        finally:
            free.append(w)
    done = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for m, (st, why) in ex.map(job, muts):
            done += 1
            results[m["id"]] = (m, st, why)
            line = "%-12s %s%s" % (st, m["id"], ("  [" + why + "]") if why else "")
            log.write(line + "\n")
            log.flush()
            if st == "SURVIVED":
                print(("EQUIV    " if m["id"] in eq else "") + line, flush=True)
            if done % 50 == 0:
                print("... %d/%d mutants, %.0f s" % (done, len(muts), time.time() - t1), flush=True)
    el = time.time() - t1
    # per-file table
    print("\n%-14s %6s %7s %8s %6s %9s %6s %7s" % ("file", "mutants", "killed", "survived", "equiv",
                                                  "same-code", "build", "score"))
    tot = dict(n=0, k=0, s=0, e=0, c=0, b=0)
    for f in files:
        rs = [r for r in results.values() if r[0]["file"] == f]
        if f.endswith(".h") and not rs:
            continue  # a header with no function body, or none run
        k = sum(1 for r in rs if r[1] == "KILLED")
        s = sum(1 for r in rs if r[1] == "SURVIVED" and r[0]["id"] not in eq)
        e = sum(1 for r in rs if r[1] == "SURVIVED" and r[0]["id"] in eq)
        c = sum(1 for r in rs if r[1] == "SAME-CODE")
        b = sum(1 for r in rs if r[1] == "BUILD-FAILED")
        for key, v in zip("nksecb", (len(rs), k, s, e, c, b)):
            tot[key] += v
        print("%-14s %6d %7d %8d %6d %9d %6d %6s" % (f, len(rs), k, s, e, c, b,
                                                    "%.1f%%" % (100.0 * k / (k + s)) if k + s else "-"))
    print("%-14s %6d %7d %8d %6d %9d %6d %6s" % ("total", tot["n"], tot["k"], tot["s"], tot["e"], tot["c"],
                                                tot["b"], "%.1f%%" % (100.0 * tot["k"] / (tot["k"] + tot["s"]))
                                                if tot["k"] + tot["s"] else "-"))
    killed_eq = [i for i in eq if i in results and results[i][1] == "KILLED"]
    stale = [i for i in eq if not any(i == m["id"] for m in muts)] if a.every == 1 and not a.match \
        and not a.files and not a.ids else []
    for i in killed_eq:
        print("equivalent.txt lists a mutant that a suite kills (not equivalent): " + i)
    for i in stale:
        print("equivalent.txt lists a mutant that no longer exists: " + i)
    print("mutants: %.0f s for %d mutants (%.2f s each, %d jobs); results in %s" %
          (el, len(muts), el / max(1, len(muts)), a.jobs, os.path.join(build, "results.txt")))
    if a.every > 1:
        print("SAMPLED: every %d-th mutant of each file was run" % a.every)
    return 1 if tot["s"] or killed_eq else 0


if __name__ == "__main__":
    sys.exit(main())
