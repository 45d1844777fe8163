#!/usr/bin/env python3
"""wrongs.py -- grade every wrong version with the real judge: each must lose points.

  wrongs.py BUILD_DIR [--wrong-dir DIR] [--only FUNCTION] [--table] [--record FILE]
  wrongs.py --from FILE [--table]

A wrong version is tests/grader/wrong/FUNCTION/NAME.c: its first line is
`// MISTAKE: what is wrong`, the rest replaces the solution region of FUNCTION in
its SOURCE (tests/assignments/chNN.tsv). For each chapter the judge is built once,
as grader/grade.sh builds it (the Gradescope pack of the chapter: the test files
with their hidden tests, the stubbed library at -O0 with the tasks' symbols weak,
grader/judge.c and the proxies of grader/calls); the runner's library is the book's
(BUILD_DIR/lib/libattention.a), and each task's source is compiled once as written
(the solution) and once per wrong version (the one changed file, linked before the
archive so that it replaces that member). Only the task's own tests run, with the
grader's limits and a fixed GRADER_SEED. Two jobs at a time.

Prints TAP lines (no plan): per task "FUNCTION: the solution scores full (a/b)" and
"FUNCTION has at least 3 wrong versions (n)", per wrong version
"FUNCTION/NAME loses points (score a/b)". --table prints instead the instructor's
table: chapter, task, wrong version, its score, the mistake. Exit 1 if any fails.

--record FILE also writes everything graded to FILE (JSON, written whole or not at
all): the TAP lines, the table's rows, and per wrong version its score and the
tests that caught it. The build makes BUILD_DIR/wrongs.json so (make wrongs); the
instructor edition and the wrongs test group read it instead of grading again.
--from FILE prints, from such a record, what the run that wrote it printed.
"""
import json
import concurrent.futures as cf
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("pack", os.path.join(ROOT, "tests/grader/pack.py"))
pack = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pack)

CC = os.environ.get("GRADER_CC", "cc")
CFLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-w"]
SEED = os.environ.get("GRADER_SEED", "20261126")
CPU = os.environ.get("GRADER_CPU", "5")
JOBS = 2
# The runner of each wrong version is linked by gold where Debian's binutils has
# it, as the unit tests are (TEST_LD in the Makefile): the same program, linked
# in about a third less processor time (this machine: all wrong versions 61 -> 55 s).
GOLD = ["-fuse-ld=gold"] if os.path.exists("/usr/bin/ld.gold") else []
MIN_WRONG = 3
# As root the judge runs the runner as an unprivileged user (nobody), as grade.sh does.
if os.geteuid() == 0:
    import pwd
    _nobody = pwd.getpwnam(os.environ.get("GRADER_USER", "nobody"))
    RUN_UID, RUN_GID = _nobody.pw_uid, _nobody.pw_gid
else:
    RUN_UID = RUN_GID = None


def sh(cmd, cwd=None, env=None, timeout=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}:\n{r.stderr.decode(errors='replace')[:2000]}")
    return r


def unstatic(text, tasks):
    """As grade.sh's unstatic: a task the book keeps static is made visible."""
    for t in tasks:
        text = re.sub(r"^static\s+((?:[A-Za-z_]\w*[\s*]+)+" + t + r"\s*\()", r"\1", text,
                      flags=re.M)
    return text


def replace_region(src, fn, body):
    """src's text with the solution region of fn replaced by body."""
    lines = pack.read(src).split("\n")
    regs, errors = pack.regions(src, lines)
    for b, e in regs:
        if pack.enclosing_function(lines, b)[0] == fn:
            return "\n".join(lines[:b + 1] + body.rstrip("\n").split("\n") + lines[e:])
    raise RuntimeError(f"{src}: no solution region in {fn}")


class Chapter:
    """One chapter's judge and runner pieces, built once in its own folder."""

    def __init__(self, nn, man, work, lib):
        self.nn, self.man, self.lib = nn, man, lib
        self.dir = os.path.join(work, f"ch{nn}")
        self.tasks = [t["fn"] for t in man["tasks"]]
        self.src_of = {t["fn"]: t["src"] for t in man["tasks"]}

    def build(self):
        d = self.dir
        pack.write_tree(d, pack.build_pack(self.nn, self.man, instructor=True))
        os.makedirs(os.path.join(d, "w/judge"), exist_ok=True)
        objs = []
        for root, _, files in sorted(os.walk(os.path.join(d, "code/lib"))):
            for f in sorted(files):
                if not f.endswith(".c"):
                    continue
                src = os.path.relpath(os.path.join(root, f), d)
                stub = os.path.join(d, "grader/stubs", src)
                text = open(stub if os.path.isfile(stub) else os.path.join(d, src)).read()
                c = os.path.join(d, "w/judge", src.replace("/", "_"))
                open(c, "w").write(unstatic(text, self.tasks))
                o = c[:-2] + ".o"
                sh([CC, "-std=c11", "-O0", "-ffp-contract=off", "-w", "-Icode/lib",
                    "-I" + os.path.dirname(src), "-c", c, "-o", o], cwd=d)
                sh(["objcopy"] + [f"--weaken-symbol={t}" for t in self.tasks] + [o])
                objs.append(o)
        sh(["ar", "rcs", "w/judge/lib.a"] + objs, cwd=d)
        calls = [f"grader/calls/{t}.c" for t in self.tasks]
        self.judges = {}
        for tf in sorted({t["file"] for t in self.man["tests"]}):
            out = os.path.join(d, "w/judge", tf)
            sh([CC] + CFLAGS + ["-O0", "-Icode/lib", "-Igrader", "-DGRADER_JUDGE",
                                f"tests/unit/{tf}.c", "grader/judge.c"] + calls
               + ["w/judge/lib.a", "-lcriterion", "-lm", "-o", out], cwd=d)
            self.judges[tf] = out
        # the runner's fixed part: main, the shims' table, the call shims
        w = os.path.join(d, "w")
        with open(os.path.join(w, "shims.c"), "w") as f:
            f.write('#include "call.h"\n')
            f.write("".join(f"GRADER_SHIM({t});\n" for t in self.tasks))
            f.write("typedef struct { const char *name; grader_shim_fn *fn; } shim_entry;\n"
                    "extern const shim_entry grader_shims[]; extern const int grader_nshims;\n"
                    "const shim_entry grader_shims[] = {\n")
            f.write("".join(f'  {{"{t}", grader_shim_{t}}},\n' for t in self.tasks))
            f.write("}; const int grader_nshims = sizeof grader_shims / sizeof *grader_shims;\n")
        self.seccomp = subprocess.run(
            [CC, "-x", "c", "-", "-lseccomp", "-o", os.path.join(w, "t")],
            input=b"int main(void){return 0;}", capture_output=True).returncode == 0
        self.fixed = []
        for c in ["grader/runner.c", "w/shims.c"] + calls:
            o = os.path.join(w, os.path.basename(c)[:-2] + ".runner.o")
            sh([CC] + CFLAGS + ["-Icode/lib", "-Igrader"]
               + ([] if self.seccomp else ["-DGRADER_NO_SECCOMP"]) + ["-c", c, "-o", o], cwd=d)
            self.fixed.append(o)
        # each task source as the book writes it (the solution)
        self.solution = {}
        for src in sorted(set(self.src_of.values())):
            self.solution[src] = self.compile(pack.read(src), src, "solution")
        return self

    def compile(self, text, src, tag):
        c = os.path.join(self.dir, "w", f"{tag}.{src.replace('/', '_')}")
        open(c, "w").write(unstatic(text, self.tasks))
        o = c[:-2] + ".o"
        sh([CC] + CFLAGS + [f"-I{os.path.join(ROOT, 'code/lib')}",
                            f"-I{os.path.join(ROOT, os.path.dirname(src))}", "-c", c, "-o", o])
        return o

    def grade(self, fn, changed=None, tag="solution", rows=None):
        """(score, points) of fn's tests; changed = (src, object) replaces src;
        rows, if given, gets (test, visibility, points, passing, tested) per test."""
        w = os.path.join(self.dir, "w", tag)
        os.makedirs(w, exist_ok=True)
        objs = dict(self.solution)
        if changed:
            objs[changed[0]] = changed[1]
        runner = os.path.join(w, "runner")
        sh([CC] + GOLD + self.fixed + sorted(objs.values()) + [self.lib]
           + (["-lseccomp"] if self.seccomp else []) + ["-lm", "-o", runner])
        score = total = 0.0
        for i, t in enumerate(x for x in self.man["tests"] if x["fn"] == fn):
            pts = float(t["points"])
            total += pts
            run_dir, out = os.path.join(w, f"run{i}"), os.path.join(w, f"out{i}")
            os.makedirs(run_dir, exist_ok=True)
            open(out + ".run", "w").close()
            if RUN_UID is not None:
                os.chown(run_dir, RUN_UID, RUN_GID)
                os.chmod(run_dir, 0o700)
            env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "GRADER_RUNNER": runner,
                   "GRADER_RUN_DIR": run_dir, "GRADER_RUN_OUT": out + ".run",
                   "GRADER_RUN_UID": "" if RUN_UID is None else str(RUN_UID),
                   "GRADER_RUN_GID": "" if RUN_GID is None else str(RUN_GID),
                   "GRADER_CALL_SECONDS": str(3 * int(CPU)), "GRADER_CPU": CPU,
                   "GRADER_MEM_MB": "1024", "GRADER_OUT_KB": "256", "GRADER_SEED": SEED}
            try:
                r = subprocess.run([self.judges[t["file"]], "--filter", t["filter"], "-j1",
                                    "--color=never", "--short-filename"], env=env,
                                   capture_output=True, timeout=6 * int(CPU),
                                   stdin=subprocess.DEVNULL)
                text = (r.stdout + r.stderr).decode(errors="replace")
            except subprocess.TimeoutExpired:
                text = ""
            if os.environ.get("WRONGS_DEBUG"): print(text[-3000:], file=sys.stderr)
            m = re.search(r"Synthesis: Tested: (\d+) \| Passing: (\d+)", text)
            if m and int(m.group(1)) > 0:
                score += pts * min(int(m.group(2)), int(m.group(1))) / int(m.group(1))
            if rows is not None:
                rows.append((t["filter"], t["vis"], pts, int(m.group(2)) if m else 0,
                             int(m.group(1)) if m else 0))
        shutil.rmtree(w, ignore_errors=True)
        return round(score, 4), total


def wrong_versions(wrong_dir, only):
    out = []
    if not os.path.isdir(wrong_dir):
        return out
    for fn in sorted(os.listdir(wrong_dir)):
        if only and fn != only:
            continue
        for f in sorted(os.listdir(os.path.join(wrong_dir, fn))):
            if f.endswith(".c"):
                out.append((fn, f[:-2], os.path.join(wrong_dir, fn, f)))
    return out


def main(argv):
    args = list(argv)
    wrong_dir, only, table = os.path.join(ROOT, "tests/grader/wrong"), None, False
    if "--wrong-dir" in args:
        i = args.index("--wrong-dir"); wrong_dir = args[i + 1]; del args[i:i + 2]
    if "--only" in args:
        i = args.index("--only"); only = args[i + 1]; del args[i:i + 2]
    if "--table" in args:
        args.remove("--table"); table = True
    record = None
    if "--record" in args and args.index("--record") + 1 < len(args):
        i = args.index("--record"); record = args[i + 1]; del args[i:i + 2]
    if "--from" in args and args.index("--from") + 1 < len(args) and len(args) == 2:
        path = args[args.index("--from") + 1]
        try:
            rec = json.load(open(path))
            lines, rows = rec["lines"], rec["table"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"wrongs.py: {path} is no record of wrongs.py --record ({e})", file=sys.stderr)
            return 2
        return show(lines, rows, table)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    lib = os.path.abspath(os.path.join(args[0], "lib/libattention.a"))
    if not os.path.isfile(lib):
        print(f"wrongs.py: no {lib} (make library first)", file=sys.stderr)
        return 2
    mans = pack.manifests()
    chapter_of = {t["fn"]: nn for nn, m in mans.items() for t in m["tasks"]}
    wrongs = wrong_versions(wrong_dir, only)
    lines, rows, graded = [], [], {}
    for fn, name, path in wrongs:
        if fn not in chapter_of:
            lines.append((f"wrong/{fn}", False, f"{fn}/{name}: no task {fn} in any manifest"))
    wanted = sorted({chapter_of[fn] for fn, _, _ in wrongs if fn in chapter_of}
                    | ({chapter_of[only]} if only in chapter_of else set())
                    | (set() if only else set(mans)))
    work = tempfile.mkdtemp(prefix="wrongs.")
    os.chmod(work, 0o755)   # the runner runs as the test user
    try:
        with cf.ThreadPoolExecutor(JOBS) as ex:
            chapters = {nn: c for nn, c in zip(wanted, ex.map(
                lambda nn: Chapter(nn, mans[nn], work, lib).build(), wanted))}
            jobs = []
            for nn in wanted:
                c = chapters[nn]
                for fn in c.tasks:
                    if only and fn != only:
                        continue
                    jobs.append(("solution", fn, None, None,
                                 ex.submit(c.grade, fn, None, f"solution.{fn}")))
            for fn, name, path in wrongs:
                if fn not in chapter_of:
                    continue
                c = chapters[chapter_of[fn]]
                text = open(path).read()
                first, _, body = text.partition("\n")
                mistake = re.sub(r"^//\s*MISTAKE:\s*", "", first)
                if not re.match(r"^//\s*MISTAKE:\s*\S", first):
                    lines.append((fn, False, f"{fn}/{name} starts with '// MISTAKE: what is "
                                             f"wrong' (it starts: {first[:60]!r})"))
                src = c.src_of[fn]

                def one(c=c, fn=fn, name=name, src=src, body=body):
                    o = c.compile(replace_region(src, fn, body), src, f"{fn}.{name}")
                    rows = []
                    score, total = c.grade(fn, (src, o), f"{fn}.{name}", rows)
                    caught = [r[0] for r in rows if r[3] < r[4] or r[4] == 0]
                    return score, total, caught
                jobs.append((name, fn, mistake, path, ex.submit(one)))
            for kind, fn, mistake, path, fut in jobs:
                caught = []
                try:
                    got = fut.result()
                    score, total = got[:2]
                    caught = got[2] if len(got) > 2 else []
                except Exception as e:   # a wrong version that does not compile
                    score, total, err = None, None, str(e).split("\n")[-2:]
                nn = chapter_of[fn]
                if kind == "solution":
                    good = score is not None and score == total and total > 0
                    lines.append((fn, good, f"{fn}: the solution scores full ({score:g}/{total:g})"
                                  if score is not None else f"{fn}: the solution builds"))
                    n = len([w for w in wrongs if w[0] == fn])
                    if wrong_dir == os.path.join(ROOT, "tests/grader/wrong"):
                        lines.append((fn, n >= MIN_WRONG,
                                      f"{fn} has at least {MIN_WRONG} wrong versions ({n})"))
                else:
                    if score is None:
                        lines.append((fn, False, f"{fn}/{kind} compiles: {' '.join(err)}"))
                        graded[f"{fn}/{kind}"] = {"error": " ".join(err)}
                        continue
                    lines.append((fn, score < total,
                                  f"{fn}/{kind} loses points (score {score:g}/{total:g})"))
                    graded[f"{fn}/{kind}"] = {"score": score, "total": total, "caught": caught}
                    rows.append(f"ch{nn}\t{fn}\t{kind}\t{score:g}/{total:g}\t{mistake}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = [[good, text] for _, good, text in lines]
    if record:
        with open(record + ".tmp", "w") as f:
            json.dump({"lines": lines, "table": rows, "graded": graded}, f, indent=0)
        os.replace(record + ".tmp", record)
        show(lines, rows, table)
        return 0   # a complete record, whatever it found: its readers report
    return show(lines, rows, table)


def show(lines, rows, table):
    """Print the TAP lines (or the table); 0 if every line is good."""
    if table:
        for r in rows:
            print(r)
        for good, text in lines:
            if not good:
                print("fails: " + text, file=sys.stderr)
    else:
        for good, text in lines:
            print(("ok - " if good else "not ok - ") + text)
    return 0 if all(good for good, _ in lines) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
