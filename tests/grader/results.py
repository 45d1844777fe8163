#!/usr/bin/env python3
"""results.py ROWS.tsv RESULTS.json SUMMARY [SEED] -- write Gradescope's results.json.

ROWS.tsv has one line per graded test: name, points, visibility, tested, passing,
verdict, message file. Each score is points * passing / tested with passing
clamped to [0, tested] and the score to [0, points]; numbers come from integers
the grader counted, never from text the student's code printed. The JSON is
written by the json module to a new file beside RESULTS (created exclusively,
never through a symlink), read back and checked, then renamed over RESULTS.
"""
import json
import math
import os
import sys


def clamp_int(text, lo, hi):
    try:
        v = int(text)
    except ValueError:
        return lo
    return max(lo, min(hi, v))


def message(path):
    try:
        with open(path, "rb") as f:
            data = f.read(6000)
    except OSError:
        return ""
    text = data.decode("utf-8", "replace")
    return "".join(c for c in text if c in "\n\t" or (c.isprintable()))


def num(x):
    """x as an int when whole (results.json then reads 26, not 26.0)."""
    return int(x) if x == int(x) else x


def build(rows_path, summary, seed, hidden_vis):
    tests, total, top = [], 0.0, 0.0
    with open(rows_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 7:
                raise ValueError("bad row: %r" % line[:200])
            name, points, vis, tested, passing, verdict, msg = fields
            pts = float(points)
            if not math.isfinite(pts) or pts < 0 or pts > 1000:
                raise ValueError("bad points in %r" % name)
            n = clamp_int(tested, 0, 10**6)
            k = clamp_int(passing, 0, n)
            score = pts * k / n if n else 0.0
            score = max(0.0, min(pts, round(score, 4)))
            total += score
            top += pts
            tests.append({"name": name, "score": num(score), "max_score": num(pts),
                          "visibility": "visible" if vis == "visible" else hidden_vis,
                          "output": (verdict + "\n" + message(msg)).rstrip() + "\n"})
    out = {"score": num(round(total, 4)), "output": summary.replace("@SCORE@", "%g / %g" % (
        round(total, 4), top)), "tests": tests}
    if seed:
        out["extra_data"] = {"seed": seed}   # for the instructor: reruns the hidden inputs
    return out, top


def check(doc, top):
    assert type(doc["score"]) in (int, float) and 0.0 <= doc["score"] <= top + 1e-9
    for t in doc["tests"]:
        assert 0.0 <= t["score"] <= t["max_score"]
    assert abs(sum(t["score"] for t in doc["tests"]) - doc["score"]) < 1e-3


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    rows, results, summary = argv[:3]
    seed = argv[3] if len(argv) == 4 else ""
    doc, top = build(rows, summary, seed,
                     os.environ.get("GRADER_HIDDEN_VISIBILITY", "visible"))
    check(doc, top)
    folder = os.path.dirname(os.path.abspath(results))
    tmp = os.path.join(folder, ".results.%d.tmp" % os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, allow_nan=False)
        f.write("\n")
    with open(tmp, encoding="utf-8") as f:
        check(json.load(f), top)
    if os.path.islink(results):
        os.unlink(tmp)
        print("results.py: %s is a symlink; not written" % results, file=sys.stderr)
        return 1
    os.replace(tmp, results)
    print(doc["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
