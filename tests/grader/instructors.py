#!/usr/bin/env python3
"""instructors.py -- the instructor edition's Markdown, cut from the sources.

  instructors.py BUILD_DIR OUT.md [--notes DIR] [--answers DIR]
  instructors.py --check BUILD_DIR [--notes DIR] [--answers DIR]

Per chapter and task (tests/assignments/chNN.tsv): the exercise as the chapter
states it, stars, minutes and points; the worked solution, cut from the reference
source (the whole function, solution markers dropped: the code the packs stub);
the hints the pack gives; the rubric (every test, its points, visible or hidden);
and the common mistakes (tests/grader/wrong/FUNCTION/*.c): what is wrong, the
region a student might write, and which tests catch it with the score it gets,
graded by the real judge (tests/grader/wrongs.py); why the solution is right
(tests/assignments/notes/chNN.md, `## why FUNCTION`). Then every exercise of the
chapter that is not a pack task, with a hint and a short answer (the same file,
`## exercise N`, paragraphs `Hint:` and `Answer:`); a number in them is written
`{{key}}` and spliced from what tests/assignments/answers/chNN.c prints
(`key<TAB>value` lines; the program is linked with the library). Never part of
the book or of a student pack: `make instructors` writes BUILD/instructors/.

  instructors.py --find-build BUILD_DIR [--notes DIR]
  instructors.py --find FILE... [--notes DIR]

--find-build looks for the instructor notes in every reader-facing output
(leak.py's list: pages, search index, EPUB, PDF text, tarballs, student packs);
--find in the files given. Each section of the notes gives its longest run of
plain words (no math, no code; at least 8 words); a hit is printed as
"found: chNN SECTION in FILE" and exits 1.

--check only checks the notes (every task has its why, every other exercise its
hint and answer, every {{key}} is printed and every printed key is used) and
exits 1 with one line per omission.
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
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


NOTES = os.path.join(ROOT, "tests/assignments/notes")
ANSWERS = os.path.join(ROOT, "tests/assignments/answers")


def read_notes(path):
    """{"why": {fn: text}, "ex": {n: {"hint": text, "answer": text}}} of a notes
    file; problems (a malformed heading, a repeated section) go to the list."""
    notes, problems = {"why": {}, "ex": {}}, []
    if not os.path.isfile(path):
        return notes, problems
    rel = os.path.relpath(path, ROOT)
    cur, body = None, []

    def flush():
        if cur is None:
            return
        text = "\n".join(body).strip()
        kind, key, line = cur
        if key in notes[kind]:
            problems.append(f"{rel}:{line}: a second section for {key}")
        if kind == "why":
            notes["why"][key] = text
            return
        parts = re.split(r"^(Hint|Answer):[ \t]*", text, flags=re.M)
        ex = {}
        for label, part in zip(parts[1::2], parts[2::2]):
            ex[label.lower()] = part.strip()
        if parts[0].strip():
            problems.append(f"{rel}:{line}: text before 'Hint:' in exercise {key}")
        notes["ex"][key] = ex

    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("## "):
            flush()
            m = re.match(r"^## (why) (\w+)\s*$|^## (exercise) (\d+)\s*$", line)
            if not m:
                problems.append(f"{rel}:{n}: expected '## why FUNCTION' or '## exercise N'")
                cur = None
                continue
            cur = ("why", m.group(2), n) if m.group(1) else ("ex", int(m.group(4)), n)
            body = []
        elif line.startswith("#"):
            problems.append(f"{rel}:{n}: only '## ' headings (why, exercise) are read")
        elif cur is not None:
            body.append(line)
        elif line.strip() and not line.startswith("<!--"):
            problems.append(f"{rel}:{n}: text outside a section")
    flush()
    return notes, problems


def answer_values(nn, lib, work, answers_dir):
    """{key: value} printed by answers_dir/chNN.c (linked with the library), or {}."""
    src = os.path.join(answers_dir, f"ch{nn}.c")
    if not os.path.isfile(src):
        return {}
    exe = os.path.join(work, f"answers_ch{nn}")
    cc = subprocess.run(["cc", "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra",
                         "-Werror", "-I" + os.path.join(ROOT, "code/lib"), src, lib, "-lm",
                         "-o", exe], capture_output=True, text=True)
    if cc.returncode:
        pack.die(f"{os.path.relpath(src, ROOT)} does not compile:\n{cc.stderr[:2000]}")
    run = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    if run.returncode:
        pack.die(f"{os.path.relpath(src, ROOT)} failed (exit {run.returncode}): "
                 f"{run.stderr.strip()[:500]}")
    values = {}
    for line in run.stdout.split("\n"):
        if not line:
            continue
        f = line.split("\t")
        if len(f) != 2 or not re.match(r"^\w+$", f[0]) or f[0] in values:
            pack.die(f"{os.path.relpath(src, ROOT)}: bad output line {line!r} "
                     "(want one 'key<TAB>value' per key)")
        values[f[0]] = f[1]
    return values


def splice(text, values, used, where, problems):
    def one(m):
        if m.group(1) not in values:
            problems.append(f"{where}: {{{{{m.group(1)}}}}} is not printed by the answer "
                            "program")
            return m.group(0)
        used.add(m.group(1))
        return values[m.group(1)]
    return re.sub(r"\{\{(\w+)\}\}", one, text)


def chapter_notes(nn, man, lib, work, notes_dir, answers_dir):
    """(why {fn: md}, [(n, exercise md, hint md, answer md)], problems) of chapter nn."""
    path = os.path.join(notes_dir, f"ch{nn}.md")
    rel = os.path.relpath(path, ROOT)
    notes, problems = read_notes(path)
    values = answer_values(nn, lib, work, answers_dir)
    used = set()
    fns = [t["fn"] for t in man["tasks"]]
    why = {}
    for fn in fns:
        if not notes["why"].get(fn):
            problems.append(f"{rel}: task {fn} has no '## why {fn}' (why the solution "
                            "is right)")
        else:
            why[fn] = splice(notes["why"][fn], values, used, f"{rel} (why {fn})", problems)
    for fn in notes["why"]:
        if fn not in fns:
            problems.append(f"{rel}: '## why {fn}': {fn} is not a task of ch{nn}.tsv")
    _, chapter = pack.chapter_title(nn)
    items = pack.exercise_items(chapter)
    open_items = {n: body for n, body in items if not pack.is_graded(body)}
    exercises = []
    for n, body in items:
        if n not in open_items:
            continue
        e = notes["ex"].get(n, {})
        for part in ("hint", "answer"):
            if not e.get(part):
                problems.append(f"{rel}: exercise {n} of chapters/{chapter} has no "
                                f"{part.capitalize()}:")
        exercises.append((n, body,
                          splice(e.get("hint", ""), values, used, f"{rel} (exercise {n})",
                                 problems),
                          splice(e.get("answer", ""), values, used, f"{rel} (exercise {n})",
                                 problems)))
    for n in notes["ex"]:
        if n not in open_items:
            problems.append(f"{rel}: '## exercise {n}' is not an ungraded exercise of "
                            f"chapters/{chapter}")
    for k in sorted(set(values) - used):
        problems.append(f"tests/assignments/answers/ch{nn}.c prints {k}, which no note uses")
    return why, exercises, problems


def all_notes(mans, lib, work, notes_dir, answers_dir):
    out, problems = {}, []
    for nn, man in mans.items():
        why, exercises, p = chapter_notes(nn, man, lib, work, notes_dir, answers_dir)
        out[nn] = (why, exercises)
        problems += p
    return out, problems


def options(argv):
    """(positional args, notes dir, answers dir, check only)."""
    pos, notes_dir, answers_dir, check = [], NOTES, ANSWERS, False
    it = iter(argv)
    for a in it:
        if a == "--notes":
            notes_dir = os.path.abspath(next(it, ""))
        elif a == "--answers":
            answers_dir = os.path.abspath(next(it, ""))
        elif a == "--check":
            check = True
        else:
            pos.append(a)
    return pos, notes_dir, answers_dir, check


def needles(notes_dir):
    """[(label, squeezed lower-case words)]: per notes section, its longest run of
    at least 8 plain words."""
    out = []
    for f in sorted(os.listdir(notes_dir)):
        m = re.match(r"^ch(\d\d)\.md$", f)
        if not m:
            continue
        notes, _ = read_notes(os.path.join(notes_dir, f))
        sections = [(f"why {k}", v) for k, v in notes["why"].items()]
        sections += [(f"exercise {k} {part}", v) for k, e in notes["ex"].items()
                     for part, v in e.items()]
        for label, text in sections:
            text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\{\{\w+\}\}", "|", text, flags=re.S)
            runs = re.findall(r"(?:[A-Za-z']+[,;]?\s+){7,}[A-Za-z']+", text)
            if runs:
                best = max(runs, key=lambda r: len(r.split()))
                out.append((f"ch{m.group(1)} {label}",
                            re.sub(r"[\s,;]+", "", best).lower()))
    return out


def find_notes(files, notes_dir):
    leak = load("leak")
    found = 0
    ns = needles(notes_dir)
    for path in files:
        for label, text in leak.targets_of(path):
            text = re.sub(r"[,;]", "", text).lower()
            for what, n in ns:
                if n in text:
                    print(f"found: {what} in {label}")
                    found += 1
    print(f"instructors: {len(ns)} passages of the notes looked for in {len(files)} files, "
          f"{found} found", file=sys.stderr)
    return 1 if found else 0


def main(argv):
    if argv[:1] in (["--find"], ["--find-build"]):
        rest, notes_dir, _, _ = options(argv[1:])
        if not rest:
            print(__doc__, file=sys.stderr)
            return 2
        files = (load("leak").build_outputs(rest[0]) if argv[0] == "--find-build"
                 else rest)
        return find_notes(files, notes_dir)
    argv, notes_dir, answers_dir, check = options(argv)
    if len(argv) != (1 if check else 2):
        print(__doc__, file=sys.stderr)
        return 2
    lib = os.path.abspath(os.path.join(argv[0], "lib/libattention.a"))
    if not os.path.isfile(lib):
        pack.die(f"no {lib}: build the library first (make library)")
    mans = pack.manifests()
    work = tempfile.mkdtemp(prefix="instructors.")
    os.chmod(work, 0o755)
    try:
        notes, problems = all_notes(mans, lib, work, notes_dir, answers_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if problems or check:
        for p in problems:
            print(f"instructors: {p}", file=sys.stderr)
        if not problems:
            n_why = sum(len(w) for w, _ in notes.values())
            n_ex = sum(len(e) for _, e in notes.values())
            print(f"instructors: {n_why} tasks with their why, {n_ex} exercises with a "
                  "hint and an answer")
        return 1 if problems else 0
    wrong_dir = os.path.join(ROOT, "tests/grader/wrong")
    out = ["---", "title: 'Attention in C: the instructor edition'", "---", "",
           "Not for students. Every solution below is the book's reference code, cut from",
           "`code/lib/` by the build; every mistake is graded by the real judge.", ""]
    record = os.path.join(argv[0], "wrongs.json")
    try:
        graded_all = json.load(open(record))["graded"]
    except (OSError, ValueError, KeyError) as e:
        pack.die(f"no record of the graded wrong versions in {record}: make wrongs ({e})")
    graded = {}
    for nn, man in mans.items():
        for fn in (t["fn"] for t in man["tasks"]):
            d = os.path.join(wrong_dir, fn)
            for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if not f.endswith(".c"):
                    continue
                text = open(os.path.join(d, f)).read()
                first, _, body = text.partition("\n")
                graded[(fn, f[:-2])] = (first, body, graded_all.get(f"{fn}/{f[:-2]}"))
    for nn, man in mans.items():
        why, exercises = notes[nn]
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
                    "", "### Why it is right", "", why[fn], "", "### Rubric", "", "| test | points | shown to students |",
                    "|---|---|---|"]
            out += [f"| `{x['filter']}` | {x['points']} | "
                    f"{'yes' if x['vis'] == 'visible' else 'no (hidden)'} |"
                    for x in tests]
            out += ["", "### Common mistakes", ""]
            mine = sorted(k for k in graded if k[0] == fn)
            if not mine:
                out += ["(none recorded)", ""]
            for k in mine:
                first, body, got = graded[k]
                what = re.sub(r"^//\s*MISTAKE:\s*", "", first)
                if got is None:
                    pack.die(f"{record} has no {k[0]}/{k[1]}: make wrongs")
                if "error" in got:
                    verdict = "does not compile"
                else:
                    verdict = (f"scores {got['score']:g}/{got['total']:g}; caught by "
                               + (", ".join(f"`{c}`" for c in got["caught"])
                                  or "nothing"))
                out += [f"**{k[1]}**: {what} ({verdict})", "", "```c",
                        body.rstrip("\n"), "```", ""]
        if exercises:
            out += [f"## The other exercises of chapter {int(nn)}", "",
                    "Not graded: a hint to give and a short answer. Numbers are "
                    "printed by `tests/assignments/answers/" + f"ch{nn}.c` during "
                    "the build.", ""]
        for n, body, hint, answer in exercises:
            text = re.sub(r"^\d+\.\s+", "", body)
            text = "\n".join(l[3:] if l.startswith("   ") else l
                             for l in text.split("\n"))
            out += [f"### Exercise {int(nn)}.{n}", "", text, "",
                    f"**Hint.** {hint}", "", f"**Answer.** {answer}", ""]
    with open(argv[1] + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(argv[1] + ".tmp", argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
