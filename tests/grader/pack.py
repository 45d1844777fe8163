#!/usr/bin/env python3
"""pack.py -- build course assignment packs from tests/assignments/chNN.tsv.

  pack.py check [FILE...]            solution markers pair and never nest (exit 1 if not)
  pack.py assignments OUT_DIR        OUT/chNN/ and OUT/chNN.tar.gz: the student packs
  pack.py gradescope OUT_DIR         OUT/chNN.zip: one Gradescope autograder per chapter
  pack.py stub-all DIR               rewrite DIR/SOURCE, for every task SOURCE of every
                                     manifest, with every graded region stubbed as a
                                     pack stubs it (a program tarball: no solutions)

A chapter's manifest, tests/assignments/chNN.tsv, has tab-separated lines:

  task  FUNCTION  SOURCE (code/lib/...c)  TODO text for the stub
  test  FUNCTION  TEST FILE (test_x)  SUITE/TEST (a Criterion filter)  POINTS  visible|hidden

A chapter without a manifest has no pack. Everything written is byte-reproducible:
sorted entries, fixed times (SOURCE_DATE_EPOCH), owner 0, gzip without a name or time.
"""
import gzip
import io
import os
import re
import shutil
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "tests", "grader")
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "1767225600"))
BEGIN = re.compile(r"^\s*//\s*BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*//\s*END SOLUTION\s*$")
ANY = re.compile(r"(BEGIN|END) SOLUTION")
KEYWORDS = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while NULL size_t""".split())


def die(msg):
    print("pack: " + msg, file=sys.stderr)
    sys.exit(1)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


# ---------------------------------------------------------------------------
# Solution regions

def regions(path, lines):
    """[(begin, end)] line indexes of the solution regions; errors for bad markers."""
    out, errors, open_at = [], [], None
    for i, line in enumerate(lines):
        if BEGIN.match(line):
            if open_at is not None:
                errors.append(f"{path}:{i + 1}: BEGIN SOLUTION inside the region opened "
                              f"at line {open_at + 1} (regions never nest)")
            open_at = i
        elif END.match(line):
            if open_at is None:
                errors.append(f"{path}:{i + 1}: END SOLUTION without a BEGIN SOLUTION")
            else:
                out.append((open_at, i))
                open_at = None
        elif ANY.search(line):
            errors.append(f"{path}:{i + 1}: a solution marker must be a line of its own: "
                          f"'// BEGIN SOLUTION' or '// END SOLUTION'")
    if open_at is not None:
        errors.append(f"{path}:{open_at + 1}: BEGIN SOLUTION without an END SOLUTION")
    return out, errors


def all_sources():
    out = []
    for d, _, files in os.walk(os.path.join(ROOT, "code")):
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files
                if f.endswith((".c", ".h"))]
    return sorted(out)


def check(paths=None):
    errors = []
    for path in paths or all_sources():
        _, e = regions(path, read(path).split("\n"))
        errors += e
    for e in errors:
        print("error: " + e, file=sys.stderr)
    return 1 if errors else 0


def enclosing_function(lines, begin):
    """(name, return type, text from the header to the region) of the function
    whose body holds line `begin`: the last line at column 0 that opens a function."""
    for i in range(begin, -1, -1):
        m = re.match(r"^(?!typedef\b)([A-Za-z_][\w \*]*?)\s*\b(\w+)\(", lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            return m.group(2), m.group(1).strip(), "\n".join(lines[i:begin])
    die(f"no function around the solution region at line {begin + 1}")


def identifiers(text):
    text = re.sub(r"//.*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.findall(r"(?<![\w.>])([A-Za-z_]\w*)", text)


def closed_loop_variables(before, region_indent):
    """Names declared in a `for (TYPE name = ...` of `before` whose loop has ended by
    the region: a later line is indented no deeper than the `for` (the sources are
    indented by their braces), or the region itself is not deeper."""
    blines = before.split("\n")
    closed, live = set(), set()
    for i, line in enumerate(blines):
        m = re.search(r"\bfor\s*\(\s*(?:\w+\s+)+\**\s*(\w+)\s*=", line)
        if not m:
            continue
        depth = len(line) - len(line.lstrip())
        later = [l for l in blines[i + 1:] if l.strip()]
        ended = region_indent <= depth or any(
            len(l) - len(l.lstrip()) <= depth for l in later)
        (closed if ended else live).add(m.group(1))
    return closed - live


def stub_region(lines, begin, end, todo, static_fns):
    """The lines that replace a region: markers kept, a TODO, (void) uses, a safe return."""
    name, rtype, before = enclosing_function(lines, begin)
    indent = re.match(r"^\s*", lines[begin]).group(0)
    region = "\n".join(lines[begin + 1:end])
    known = (set(identifiers(before)) - closed_loop_variables(before, len(indent))) \
        | static_fns
    used = []
    for ident in identifiers(region):
        if ident in known and ident not in KEYWORDS and not ident.endswith("_t") \
                and ident != name and ident not in used and not ident.isupper():
            used.append(ident)
    out = [lines[begin], f"{indent}// TODO({name}): {todo}"]
    out += [f"{indent}(void){u};" for u in used]
    if re.search(r"\breturn\b", region) and rtype.replace("static", "").strip() != "void":
        ret = "NULL" if "*" in rtype else "0" if re.search(r"float|double", rtype) else "-1"
        out.append(f"{indent}return {ret};   // placeholder: replace with your code")
    out.append(lines[end])
    return out, name


def transform(path, stub_fns, todos):
    """The source with the regions of stub_fns stubbed and the others kept: a pack is
    the working library apart from its own chapter's tasks (an earlier chapter's code
    may call a later chapter's task, as nw_weights calls softmax)."""
    lines = read(path).split("\n")
    regs, errors = regions(path, lines)
    if errors:
        die("; ".join(errors))
    static_fns = set(re.findall(r"^static\s[^(=;]*?\b(\w+)\(", "\n".join(lines), re.M))
    out, last, stubbed = [], 0, []
    for b, e in regs:
        name = enclosing_function(lines, b)[0]
        out += lines[last:b]
        if name not in stub_fns:
            out += lines[b:e + 1]
        else:
            new, _ = stub_region(lines, b, e, todos[name], static_fns)
            out += new
            stubbed.append(name)
        last = e + 1
    out += lines[last:]
    missing = set(stub_fns) - set(stubbed)
    if missing:
        die(f"{path}: no solution region in {', '.join(sorted(missing))}")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Manifests and the files of a pack

def manifests():
    d = os.path.join(ROOT, "tests", "assignments")
    out = {}
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        m = re.match(r"^ch(\d\d)\.tsv$", f)
        if m:
            out[m.group(1)] = parse_manifest(os.path.join("tests", "assignments", f))
    return out


def parse_manifest(path):
    tasks, tests, hints = [], [], []
    for n, line in enumerate(read(path).split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        where = f"{path}:{n}"
        if f[0] == "hint" and len(f) == 3:   # the pack's README and the instructor edition
            hints.append((f[1], f[2], where))
            continue
        if f[0] == "task" and len(f) in (4, 6):   # 6: ... STARS MINUTES (issue 25)
            if not os.path.isfile(os.path.join(ROOT, f[2])):
                die(f"{where}: no file {f[2]}")
            tasks.append({"fn": f[1], "src": f[2], "todo": f[3]})
        elif f[0] == "test" and len(f) == 6:
            if f[5] not in ("visible", "hidden"):
                die(f"{where}: visibility must be visible or hidden")
            if not re.match(r"^\d+(\.\d+)?$", f[4]):
                die(f"{where}: points must be a number")
            if not os.path.isfile(os.path.join(ROOT, "tests", "unit", f[2] + ".c")):
                die(f"{where}: no file tests/unit/{f[2]}.c")
            tests.append({"fn": f[1], "file": f[2], "filter": f[3], "points": f[4],
                          "vis": f[5]})
        else:
            die(f"{where}: expected 'task FN SRC TODO' or "
                f"'test FN FILE SUITE/TEST POINTS VIS', tab-separated")
    fns = {t["fn"] for t in tasks}
    for t in tests:
        if t["fn"] not in fns:
            die(f"{path}: test {t['filter']} grades unknown task {t['fn']}")
    for fn in fns:
        if not any(t["fn"] == fn for t in tests):
            die(f"{path}: task {fn} has no graded test")
    by_fn = {}
    for fn, text, where in hints:
        if fn not in fns:
            die(f"{where}: hint for {fn}, which is not a task of this manifest")
        by_fn.setdefault(fn, []).append(text)
        if len(by_fn[fn]) > 2:
            die(f"{where}: a third hint for {fn} (a pack gives at most two per task)")
    return {"tasks": tasks, "tests": tests, "path": path, "hints": by_fn}


def include_closure(start):
    """Files reachable from `start` through #include "..." (headers resolve in
    code/lib, or beside the including test file; a library header brings its .c)."""
    seen, todo = set(), list(start)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for inc in re.findall(r'^#include "([^"]+)"', read(f), re.M):
            beside = os.path.join(os.path.dirname(f), inc)   # e.g. tests/unit/helpers.h
            if os.path.isfile(os.path.join(ROOT, beside)) and not beside.startswith("code/"):
                todo.append(beside)
                continue
            h = os.path.join("code", "lib", inc)
            if os.path.isfile(os.path.join(ROOT, h)):
                todo.append(h)
                c = h[:-2] + ".c"
                if os.path.isfile(os.path.join(ROOT, c)):
                    todo.append(c)
    return sorted(seen)


def strip_tests(text, hidden):
    """Remove the Test(suite, name) blocks that match a hidden filter."""
    out, skip = [], False
    for line in text.split("\n"):
        m = re.match(r"^Test\(\s*(\w+)\s*,\s*(\w+)", line)
        if m and any(fnmatch(f"{m.group(1)}/{m.group(2)}", h) for h in hidden):
            skip = True
            while out and out[-1].lstrip().startswith("//"):   # its comment goes too
                out.pop()
        if not skip:
            out.append(line)
        elif line.startswith("}"):
            skip = False
    return "\n".join(out)


def fnmatch(name, pattern):
    import fnmatch as fm
    return fm.fnmatchcase(name, pattern)


def chapter_title(nn):
    for f in sorted(os.listdir(os.path.join(ROOT, "chapters"))):
        if f.startswith(nn + "-"):
            for line in read(os.path.join("chapters", f)).split("\n"):
                if line.startswith("# "):
                    return line[2:].strip(), f
    return f"Chapter {int(nn)}", None


def exercise_items(chapter):
    """[(number, text)]: the numbered items of the chapter's Exercises section, as
    plain Markdown (cross-references cut down to words)."""
    if not chapter:
        return []
    text = read(os.path.join("chapters", chapter))
    m = re.search(r"^## Exercises[^\n]*\n(.*?)(?=^#{1,2} |\Z)", text, re.M | re.S)
    if not m:
        return []
    items, cur = [], None
    for line in m.group(1).split("\n"):
        if re.match(r"^\d+\.\s", line):
            cur = [line]
            items.append(cur)
        elif cur is not None and (line.startswith("   ") or not line.strip()):
            cur.append(line)
        else:
            cur = None
    out = []
    for item in items:
        body = "\n".join(item).strip()
        body = re.sub(r"\[\]\(#(sec|fig|eq):[^)]*\)", "the chapter", body)
        body = re.sub(r"\[([^\]]*)\]\(#[^)]*\)", r"\1", body)
        body = re.sub(r"\[([^\]]*)\]\{\.val[^}]*\}", r"\1", body)
        out.append((int(re.match(r"\d+", body).group(0)), body))
    return out


def is_graded(text):
    """An exercise item that is a pack task (it names one, `pack task(s) ...`)."""
    return bool(re.search(r"pack tasks? `", text))


def graded_exercises(chapter, fns):
    """The numbered items of the chapter's Exercises section that name one of fns
    as their pack task, as plain Markdown (cross-references cut down to words)."""
    return "\n".join(body for _, body in exercise_items(chapter)
                     if any(f"`{fn}`" in body for fn in fns) and re.search(r"graded", body))


def build_pack(nn, man, instructor):
    """{path in pack: (bytes, mode)} for chapter nn; instructor packs keep hidden tests."""
    files = {}
    tasks, tests = man["tasks"], man["tests"]
    todos = {t["fn"]: t["todo"] for t in tasks}
    test_files = sorted({f"tests/unit/{t['file']}.c" for t in tests})
    wanted = include_closure(test_files + sorted({t["src"] for t in tasks}))
    hidden = [t["filter"] for t in tests if t["vis"] == "hidden"]
    for path in wanted:
        if path.startswith("tests/unit/"):
            text = read(path) if instructor else strip_tests(read(path), hidden)
            files[path] = (text.encode(), 0o644)
            continue
        text = read(path)
        if path.endswith(".c"):
            regs, _ = regions(path, text.split("\n"))
            if regs:
                stub_fns = {t["fn"] for t in tasks if t["src"] == path}
                text = transform(path, stub_fns, todos)
                if stub_fns:
                    files[f"grader/stubs/{path}"] = (text.encode(), 0o644)
        files[path] = (text.encode(), 0o644)
    graded = tests if instructor else [t for t in tests if t["vis"] == "visible"]
    files["grader/tasks.tsv"] = ("".join(
        f"{t['fn']}\t{t['src']}\t{t['todo']}\n" for t in tasks).encode(), 0o644)
    files["grader/tests.tsv"] = ("".join(
        f"{t['fn']}\t{t['file']}\t{t['filter']}\t{t['points']}\t{t['vis']}\n"
        for t in graded).encode(), 0o644)
    files["grader/grade.sh"] = (read("tests/grader/grade.sh").encode(), 0o755)
    for f in ("judge.c", "runner.c", "call.h", "wire.h"):
        files[f"grader/{f}"] = (read(f"tests/grader/{f}").encode(), 0o644)
    files["grader/results.py"] = (read("tests/grader/results.py").encode(), 0o755)
    for t in tasks:   # every task is judged across two processes (grader/call.h)
        call = f"tests/grader/calls/{t['fn']}.c"
        if not os.path.isfile(os.path.join(ROOT, call)):
            sys.exit(f"pack.py: task {t['fn']} has no {call} (how the judge calls it)")
        files[f"grader/calls/{t['fn']}.c"] = (read(call).encode(), 0o644)
    files["Makefile"] = (read("tests/grader/pack.mk").encode(), 0o644)
    files["README.md"] = (readme(nn, man).encode(), 0o644)
    return files


def readme(nn, man):
    title, chapter = chapter_title(nn)
    tasks, tests = man["tasks"], man["tests"]
    total = sum(float(t["points"]) for t in tests)
    rows = []
    for t in tasks:
        mine = [x for x in tests if x["fn"] == t["fn"]]
        pts = sum(float(x["points"]) for x in mine)
        nh = sum(1 for x in mine if x["vis"] == "hidden")
        rows.append(f"| `{t['fn']}` | `{t['src']}` | {pts:g} | {len(mine) - nh} visible, "
                    f"{nh} hidden |")
    tpl = read("tests/grader/README.pack.md")
    ex = graded_exercises(chapter, [t["fn"] for t in tasks])
    ex = ("## The exercises, as the chapter states them\n\n" + ex + "\n") if ex else ""
    hints = [f"- `{t['fn']}`: {h}" for t in tasks for h in man.get("hints", {}).get(t["fn"], [])]
    if hints:
        ex += ("\n## Hints\n\nRead them only when stuck (at most two per function).\n\n"
               + "\n".join(hints) + "\n")
    return (tpl.replace("@N@", str(int(nn))).replace("@TITLE@", title)
               .replace("@EXERCISES@", ex)
               .replace("@CHAPTER@", f"chapters/{chapter}" if chapter else "the chapter")
               .replace("@TOTAL@", f"{total:g}")
               .replace("@TASKS@", "\n".join(rows))
               .replace("@FILES@", " ".join(sorted({os.path.basename(t["src"])
                                                    for t in tasks}))))


# ---------------------------------------------------------------------------
# Writing, reproducibly

def write_tree(out_dir, files):
    shutil.rmtree(out_dir, ignore_errors=True)
    for path, (data, mode) in sorted(files.items()):
        full = os.path.join(out_dir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        os.chmod(full, mode)
        os.utime(full, (EPOCH, EPOCH))


def dirs_of(paths):
    out = set()
    for p in paths:
        d = os.path.dirname(p)
        while d:
            out.add(d)
            d = os.path.dirname(d)
    return sorted(out)


def write_tar_gz(out_path, prefix, files):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        entries = [(d, None) for d in [""] + dirs_of(files)] + sorted(files.items())
        for path, item in sorted(entries, key=lambda e: e[0]):
            info = tarfile.TarInfo(f"{prefix}/{path}".rstrip("/"))
            info.mtime, info.uid, info.gid, info.uname, info.gname = EPOCH, 0, 0, "", ""
            if item is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(item[0]), item[1]
                tar.addfile(info, io.BytesIO(item[0]))
    with open(out_path + ".tmp", "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            gz.write(buf.getvalue())
    os.replace(out_path + ".tmp", out_path)


def write_zip(out_path, files):
    import time
    stamp = time.gmtime(max(EPOCH, 315532800))[:6]
    with zipfile.ZipFile(out_path + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for path, (data, mode) in sorted(files.items()):
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.create_system = 3
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(out_path + ".tmp", out_path)


def stub_all(out_dir):
    """Every graded function of every chapter stubbed in out_dir's copy of its source."""
    by_src, todos = {}, {}
    for man in manifests().values():
        for t in man["tasks"]:
            by_src.setdefault(t["src"], set()).add(t["fn"])
            todos[t["fn"]] = t["todo"]
    for src, fns in sorted(by_src.items()):
        dest = os.path.join(out_dir, src)
        if not os.path.isfile(dest):
            continue   # the tarball does not ship this source
        text = transform(src, fns, todos)
        with open(dest + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(dest + ".tmp", dest)
    return 0


def main(argv):
    if len(argv) >= 1 and argv[0] == "check":
        return check([os.path.abspath(p) for p in argv[1:]])
    if len(argv) == 2 and argv[0] == "stub-all":
        return stub_all(argv[1])
    if len(argv) != 2 or argv[0] not in ("assignments", "gradescope"):
        print(__doc__, file=sys.stderr)
        return 2
    if check():
        return 1
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    mans = manifests()
    for nn, man in mans.items():
        if argv[0] == "assignments":
            files = build_pack(nn, man, instructor=False)
            write_tree(os.path.join(out, f"ch{nn}"), files)
            write_tar_gz(os.path.join(out, f"ch{nn}.tar.gz"), f"ch{nn}", files)
            print(f"  PACK   {out}/ch{nn}/ and ch{nn}.tar.gz")
        else:
            files = {f"pack/{p}": v for p, v in
                     build_pack(nn, man, instructor=True).items()}
            files["setup.sh"] = (read("tests/grader/setup.sh").encode(), 0o755)
            files["run_autograder"] = (read("tests/grader/run_autograder").encode(), 0o755)
            write_zip(os.path.join(out, f"ch{nn}.zip"), files)
            print(f"  ZIP    {out}/ch{nn}.zip")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
