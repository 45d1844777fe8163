#!/usr/bin/env python3
"""instructors.py -- the instructor edition's Markdown, cut from the sources.

  instructors.py BUILD_DIR OUT.md

Per chapter and task (tests/assignments/chNN.tsv): the exercise as the chapter
states it, stars, minutes and points; the worked solution, cut from the reference
source (the whole function, solution markers dropped: the code the packs stub);
the hints the pack gives; the rubric (every test, its points, visible or hidden);
and the common mistakes (tests/grader/wrong/FUNCTION/*.c): what is wrong, the
region a student might write, and which tests catch it with the score it gets,
graded by the real judge (tests/grader/wrongs.py). Never part of the book or of a
student pack: `make instructors` writes BUILD/instructors/.
"""
import concurrent.futures as cf
import importlib.util
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tests/grader",
                                                                     name + ".py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


wrongs = load("wrongs")
pack = wrongs.pack


def whole_function(src, fn):
    """The function fn of src, from its header to the closing brace at column 0,
    solution markers dropped."""
    lines = pack.read(src).split("\n")
    regs, _ = pack.regions(src, lines)
    for b, _ in regs:
        name, _, _ = pack.enclosing_function(lines, b)
        if name != fn:
            continue
        start = b
        while not re.match(r"^(?!typedef\b)[A-Za-z_][\w \*]*?\b" + fn + r"\(", lines[start]):
            start -= 1
        end = b
        while lines[end] != "}":
            end += 1
        return "\n".join(l for l in lines[start:end + 1] if not pack.ANY.search(l))
    return ""


def manifest_extras(path):
    """{fn: {"stars", "minutes", "hints"}} from a manifest's 6-field task lines."""
    out = {}
    for line in pack.read(path).split("\n"):
        f = line.split("\t")
        if f[0] == "task":
            out.setdefault(f[1], {"hints": []})
            if len(f) == 6:
                out[f[1]].update(stars=int(f[4]) if f[4].isdigit() else 0, minutes=f[5])
        elif f[0] == "hint" and len(f) == 3:
            out.setdefault(f[1], {"hints": []})["hints"].append(f[2])
    return out


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    lib = os.path.abspath(os.path.join(argv[0], "lib/libattention.a"))
    mans = pack.manifests()
    work = tempfile.mkdtemp(prefix="instructors.")
    os.chmod(work, 0o755)
    wrong_dir = os.path.join(ROOT, "tests/grader/wrong")
    out = ["---", "title: 'Attention in C: the instructor edition'", "---", "",
           "Not for students. Every solution below is the book's reference code, cut from",
           "`code/lib/` by the build; every mistake is graded by the real judge.", ""]
    try:
        with cf.ThreadPoolExecutor(wrongs.JOBS) as ex:
            chapters = dict(zip(mans, ex.map(
                lambda nn: wrongs.Chapter(nn, mans[nn], work, lib).build(), mans)))
            graded = {}
            for nn, c in chapters.items():
                for fn in c.tasks:
                    d = os.path.join(wrong_dir, fn)
                    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                        if not f.endswith(".c"):
                            continue
                        text = open(os.path.join(d, f)).read()
                        first, _, body = text.partition("\n")

                        def one(c=c, fn=fn, name=f[:-2], body=body):
                            rows = []
                            src = c.src_of[fn]
                            o = c.compile(wrongs.replace_region(src, fn, body), src,
                                          f"{fn}.{name}")
                            s, t = c.grade(fn, (src, o), f"{fn}.{name}", rows)
                            return s, t, rows
                        graded[(fn, f[:-2])] = (first, body, ex.submit(one))
            for nn, man in mans.items():
                title, chapter = pack.chapter_title(nn)
                extras = manifest_extras(man["path"])
                out += [f"# Chapter {int(nn)}: {title}", ""]
                for t in man["tasks"]:
                    fn, e = t["fn"], extras.get(t["fn"], {"hints": []})
                    tests = [x for x in man["tests"] if x["fn"] == fn]
                    pts = sum(float(x["points"]) for x in tests)
                    stars = "★" * e.get("stars", 0)
                    out += [f"## `{fn}` `{stars}`", "",
                            f"`{t['src']}`; {pts:g} points; about {e.get('minutes', '?')}"
                            " minutes.", ""]
                    ex_text = pack.graded_exercises(chapter, [fn])
                    if ex_text:
                        out += ["The exercise:", "", ex_text, ""]
                    out += ["What the stub asks: " + t["todo"], ""]
                    if e["hints"]:
                        out += ["Hints (in the student pack):", ""]
                        out += [f"- {h}" for h in e["hints"]] + [""]
                    out += ["### Solution", "", "```c", whole_function(t["src"], fn), "```",
                            "", "### Rubric", "", "| test | points | shown to students |",
                            "|---|---|---|"]
                    out += [f"| `{x['filter']}` | {x['points']} | "
                            f"{'yes' if x['vis'] == 'visible' else 'no (hidden)'} |"
                            for x in tests]
                    out += ["", "### Common mistakes", ""]
                    mine = sorted(k for k in graded if k[0] == fn)
                    if not mine:
                        out += ["(none recorded)", ""]
                    for k in mine:
                        first, body, fut = graded[k]
                        what = re.sub(r"^//\s*MISTAKE:\s*", "", first)
                        try:
                            s, tot, rows = fut.result()
                            caught = [r[0] for r in rows if r[3] < r[4] or r[4] == 0]
                            verdict = (f"scores {s:g}/{tot:g}; caught by "
                                       + (", ".join(f"`{c}`" for c in caught) or "nothing"))
                        except Exception:
                            verdict = "does not compile"
                        out += [f"**{k[1]}**: {what} ({verdict})", "", "```c",
                                body.rstrip("\n"), "```", ""]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(argv[1] + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(argv[1] + ".tmp", argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
