#!/usr/bin/env python3
"""lint.py [--root DIR] [--stats] -- the code-shape rules of tests/lint.conf, as TAP.

One TAP line per rule (ok when nothing breaks it, or only what tests/lint.allow
lists), then one for the allow-list itself (not ok when an entry matches no
violation: a stale entry). Each violation is a "# RULE FILE NAME: FILE:LINE: why"
comment under its rule; "RULE FILE NAME" is the form an allow-list line takes.
Exit status 1 when any line is "not ok", 2 on a bad configuration.

C is read as text, not compiled: comments, strings and preprocessor lines are
blanked first, then a scan over brace depth finds each function's extent (a "{"
at depth 0 right after a parameter list) and each declaration's parameters.
--stats prints the numbers the rules measure (longest function, widest
signature, ...) as comments.
"""
import argparse
import collections
import os
import re
import sys

RULES = [
    ("exit", "no exit( in a chapter program (report through xok)"),
    ("cli_parse", "no cli_parse( in a chapter program (program_start calls it)"),
    ("main-lines", "every main in code/ at most {max_main_lines} lines"),
    ("function-lines", "every function in code/ at most {max_function_lines} lines"),
    ("columns", "lines in code/ and tests/unit/ at most {max_columns} columns"),
    ("include-order", "library includes point down the group order"),
    ("params", "every function in code/ takes at most {max_params} parameters"),
]
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "_Alignof",
            "_Generic", "defined"}


def die(msg):
    print("lint.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_conf(path):
    conf = {}
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        key, vals = words[0], words[1:]
        if key == "groups" and vals:
            conf[key] = vals
        elif key.startswith("max_") and len(vals) == 1 and vals[0].isdigit():
            conf[key] = int(vals[0])
        else:
            die("%s:%d: not a setting: %s" % (path, n, line.strip()))
    for key in ("groups", "max_main_lines", "max_function_lines", "max_columns",
                "max_params"):
        if key not in conf:
            die("%s: no %s" % (path, key))
    return conf


def read_allow(path):
    allow = collections.Counter()
    if not os.path.exists(path):
        return allow
    for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 3 or words[0] not in dict(RULES):
            die("%s:%d: not \"RULE FILE NAME\": %s" % (path, n, line.strip()))
        allow[tuple(words)] += 1
    return allow


NOISE = re.compile(r"""//[^\n]*|/\*.*?(\*/|\Z)|"(\\.|[^"\\\n])*"?|'(\\.|[^'\\\n])*'?"""
                   r"|^[ \t]*\#(\\\n|[^\n])*", re.S | re.M)


def blank(text):
    """Comments, string and character literals and preprocessor lines become
    spaces; newlines stay, so offsets and line numbers are the source's."""
    return NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def split_params(inside):
    """The parameters of one parameter list (text between its parentheses)."""
    parts, depth, cur = [], 0, ""
    for c in inside:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    parts = [p.strip() for p in parts]
    if parts == [""] or parts == ["void"]:
        return []
    return parts


Func = collections.namedtuple("Func", "name first last params is_def")


def scan(clean):
    """Functions declared or defined at file scope: name, first line (the one
    naming it), last line (its closing brace; the declaration's for a
    prototype), parameter count, and whether it is a definition."""
    line_of = [0] * (len(clean) + 1)
    ln = 1
    for k, c in enumerate(clean):
        line_of[k] = ln
        if c == "\n":
            ln += 1
    line_of[len(clean)] = ln
    funcs, depth, paren, skip_to = [], 0, 0, -1
    open_paren = None
    for m in re.finditer(r"[{}()]", clean):
        i, c = m.start(), m.group(0)
        if i <= skip_to:
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and c == "(":
            if paren == 0:
                open_paren = i
            paren += 1
        elif depth == 0 and c == ")":
            paren -= 1
            if paren == 0 and open_paren is not None:
                f = declared_at(clean, open_paren, i, line_of)
                if f:
                    funcs.append(f)
                    if f.is_def:                        # skip to its close
                        skip_to = body_end(clean, clean.index("{", i))
                        funcs[-1] = f._replace(last=line_of[skip_to])
    return funcs


def declared_at(clean, lp, rp, line_of):
    """A function declared by the parameter list clean[lp..rp], or None."""
    base = max(0, lp - 400)                      # the declaration's start is near
    m = re.search(r"([A-Za-z_]\w*)\s*$", clean[base:lp])
    if not m or m.group(1) in KEYWORDS:
        return None
    head = clean[base:base + m.start()]
    if not re.search(r"[\w*]\s*$", head):           # a type names it
        return None
    if re.search(r"\btypedef\b[^;{}]*$", head):
        return None
    after = re.match(r"\s*(\{|;)", clean[rp + 1:])
    if not after:
        return None
    nparams = len(split_params(clean[lp + 1:rp]))
    line = line_of[base + m.start(1)]
    return Func(m.group(1), line, line_of[rp], nparams, after.group(1) == "{")


def body_end(clean, lb):
    depth = 0
    for k in range(lb, len(clean)):
        if clean[k] == "{":
            depth += 1
        elif clean[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(clean) - 1


def c_files(root, top):
    found = []
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                found.append(os.path.relpath(os.path.join(d, f), root))
    return found


def enclosing(defs, line):
    for f in defs:
        if f.first <= line <= f.last:
            return f.name
    return "-"


def check_file(path, text, conf, out, stats):
    """Append (rule, file, name, line, why) for each violation in one file."""
    clean = blank(text)
    funcs = scan(clean)
    defs = [f for f in funcs if f.is_def]
    program = re.fullmatch(r"code/ch\d\d_\w+\.c", path) is not None
    if path.startswith("code/"):
        for f in defs:
            length = f.last - f.first + 1
            stats["function"].append((length, path, f.name))
            if f.name == "main":
                stats["main"].append((length, path, f.name))
                if length > conf["max_main_lines"]:
                    out.append(("main-lines", path, f.name, f.first,
                                "main is %d lines" % length))
            if length > conf["max_function_lines"]:
                out.append(("function-lines", path, f.name, f.first,
                            "%s is %d lines" % (f.name, length)))
        for f in funcs:
            stats["params"].append((f.params, path, f.name))
            if f.params > conf["max_params"]:
                out.append(("params", path, f.name, f.first,
                            "%s takes %d parameters" % (f.name, f.params)))
    if program:
        for rule in ("exit", "cli_parse"):
            for m in re.finditer(r"(?<![\w.>])%s\s*\(" % rule, clean):
                line = clean.count("\n", 0, m.start()) + 1
                out.append((rule, path, enclosing(defs, line), line,
                            "%s( called" % rule))
    for k, line in enumerate(text.split("\n"), 1):
        width = len(line.expandtabs(8))
        if width > conf["max_columns"]:
            stats["columns"].append((width, path, k))
            out.append(("columns", path, enclosing(defs, k), k,
                        "%d columns" % width))
    m = re.match(r"code/lib/(\w+)/", path)
    if m:
        check_includes(path, text, m.group(1), conf["groups"], defs, out)


def check_includes(path, text, group, groups, defs, out):
    if group not in groups:
        out.append(("include-order", path, "-", 1,
                    "group %s/ is not in lint.conf's groups" % group))
        return
    for k, line in enumerate(text.split("\n"), 1):
        m = re.match(r'\s*#\s*include\s*"(\w+)/', line)
        if not m:
            continue
        to = m.group(1)
        if to not in groups:
            why = "includes %s/, not in lint.conf's groups" % to
        elif groups.index(to) > groups.index(group):
            why = "%s/ includes %s/, a later group" % (group, to)
        else:
            continue
        out.append(("include-order", path, "-", k, why))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--list", action="store_true",
                    help="print every violation as an allow-list line, nothing else")
    a = ap.parse_args()
    conf = read_conf(os.path.join(a.root, "tests/lint.conf"))
    allow = read_allow(os.path.join(a.root, "tests/lint.allow"))
    files = c_files(a.root, "code") + c_files(a.root, "tests/unit")
    if not any(f.startswith("code/") for f in files):
        die("no C files under %s/code" % a.root)
    found, stats = [], collections.defaultdict(list)
    for path in files:
        with open(os.path.join(a.root, path), encoding="utf-8") as fh:
            check_file(path, fh.read(), conf, found, stats)
    if a.list:
        print("\n".join("%s %s %s" % v[:3] for v in found))
        return 0
    return report(found, allow, conf, stats if a.stats else None)


def report(found, allow, conf, stats):
    left, bad, n = collections.Counter(allow), 0, 0
    for rule, what in RULES:
        mine = [v for v in found if v[0] == rule]
        notes, broken = [], 0
        for v in mine:
            key = v[:3]
            tag = "allowed" if left[key] > 0 else "VIOLATION"
            if left[key] > 0:
                left[key] -= 1
            else:
                broken += 1
            notes.append("# %s %s %s %s: %s:%d: %s" % ((tag,) + key + v[1:2] + v[3:]))
        n += 1
        bad += broken > 0
        print("%s %d - %s: %s (%d found, %d allowed)" % (
            "not ok" if broken else "ok", n, rule, what.format(**conf), len(mine),
            len(mine) - broken))
        print("\n".join(notes[:60]) if notes else "", end="\n" if notes else "")
    stale = [k for k, c in left.items() for _ in range(c)]
    n += 1
    bad += len(stale) > 0
    print("%s %d - allow: every lint.allow entry still matches a violation" % (
        "not ok" if stale else "ok", n))
    for k in stale:
        print("# stale entry: %s %s %s" % k)
    if stats is not None:
        print_stats(stats, found)
    return 1 if bad else 0


def print_stats(stats, found):
    for key in ("function", "main", "params", "columns"):
        if stats[key]:
            top = sorted(stats[key], reverse=True)[:3]
            print("# stats: %s top: %s" % (key, "; ".join(
                "%s %s:%s" % (v, p, nm) for v, p, nm in top)))
    counts = collections.Counter(v[0] for v in found)
    print("# stats: violations " + " ".join("%s=%d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    sys.exit(main())
