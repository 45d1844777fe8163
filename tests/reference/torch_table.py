"""torch_table.py [DIR] -- the book's appendix table: each library function the
PyTorch reference tests check, with the PyTorch operations its reference is
computed with, read from the tests themselves (tests/reference/cases_*.py), so
the table cannot drift from what is checked.

Nothing is imported (no torch needed): the sources are parsed. For every
entry Fn("NAME", sizes, make, ref) of a module's TABLE, the reference ref (a
function or a lambda) is walked, through the helper functions of its module
and of reflib.py it calls: calls into torch (torch.*, F.* = torch.nn.functional,
names imported from torch), tensor methods that compute (not the reshaping
ones), and the matrix product @. A backward pass whose reference is autograd
says so. Markdown on stdout; a TABLE entry it cannot read is one line on
stderr and exit status 1."""
import ast
import os
import sys

# tensor methods that only move, view or convert data: not named in the table
PLUMBING = {
    "reshape", "view", "transpose", "contiguous", "t", "float", "double", "long",
    "int", "bool", "numpy", "item", "detach", "requires_grad_", "clone", "to", "size",
    "unsqueeze", "squeeze", "permute", "expand", "split", "chunk", "append", "astype",
    "tolist", "copy_", "zero_", "fill_", "flatten", "unflatten", "narrow", "select",
    "index_select", "repeat", "stack", "cat", "new_zeros", "new_ones", "zeros_like",
    "ones_like", "copy", "extend", "items", "keys", "values", "get", "format",
    "join", "sum_to_size", "dim", "numel", "nonzero", "any", "all", "eq", "ne",
    "abs", "max", "min", "argmax", "sort", "tensor", "from_numpy", "arange",
    "zeros", "ones", "empty", "full", "eye", "randn", "rand", "manual_seed",
    "no_grad", "set_grad_enabled", "is_tensor", "as_tensor", "where", "isnan",
    "isfinite", "nan_to_num", "ravel", "reshape_as", "view_as", "expand_as",
    "type", "cpu", "new_tensor", "shape", "split_with_sizes", "unbind",
}
TORCH_ROOTS = {"torch", "F", "nn"}


def dotted(node):
    """'a.b.c' for an Attribute chain rooted at a Name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id] + parts[::-1])
    return None


class Ops:
    def __init__(self, defs, torch_names):
        self.defs, self.torch_names = defs, torch_names

    def of(self, node, seen=None):
        """The torch operations node computes with, in order of first use."""
        seen = set() if seen is None else seen
        out = []

        def add(op):
            if op not in out:
                out.append(op)

        for sub in ast.walk(node):
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.MatMult):
                add("@")
            if not isinstance(sub, ast.Call):
                continue
            f = sub.func
            name = dotted(f)
            if isinstance(f, ast.Name) and f.id in self.defs and f.id not in seen:
                seen.add(f.id)
                for op in self.of(self.defs[f.id], seen):
                    add(op)
            elif isinstance(f, ast.Name) and f.id in self.torch_names:
                add(f.id)
            elif name and name.split(".")[0] in TORCH_ROOTS:
                last = name.split(".")[-1]
                if name in ("torch.autograd.grad",) or last not in PLUMBING:
                    add(name)
            elif isinstance(f, ast.Attribute) and f.attr not in PLUMBING \
                    and not (name and name.split(".")[0] in ("np", "rng", "math", "c", "self")):
                add("." + f.attr)
        return out


def module_defs(tree):
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def torch_imports(tree):
    names = set()
    for n in tree.body:
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("torch"):
            names.update(a.asname or a.name for a in n.names)
    return names


def table_entries(tree):
    for n in tree.body:
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "TABLE"
                                             for t in n.targets):
            return n.value.elts if isinstance(n.value, ast.List) else None
    return None


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    lib = ast.parse(open(os.path.join(d, "reflib.py"), encoding="utf-8").read())
    lib_defs = module_defs(lib)
    rows, bad = [], 0
    for fname in sorted(os.listdir(d)):
        if not (fname.startswith("cases_") and fname.endswith(".py")):
            continue
        where = fname[len("cases_"):-3]
        tree = ast.parse(open(os.path.join(d, fname), encoding="utf-8").read())
        ops = Ops({**lib_defs, **module_defs(tree)}, torch_imports(tree) | torch_imports(lib))
        entries = table_entries(tree)
        if entries is None:
            print(f"torch_table: {fname}: no TABLE list", file=sys.stderr)
            bad += 1
            continue
        for e in entries:
            kw = {k.arg: k.value for k in getattr(e, "keywords", [])}
            args = getattr(e, "args", [])
            if not (isinstance(e, ast.Call) and getattr(e.func, "id", "") == "Fn" and args
                    and isinstance(args[0], ast.Constant)):
                print(f"torch_table: {fname}:{e.lineno}: not an Fn(\"NAME\", ...) entry",
                      file=sys.stderr)
                bad += 1
                continue
            ref = args[3] if len(args) > 3 else kw.get("ref") or kw.get("check")
            if ref is None:
                print(f"torch_table: {fname}:{e.lineno}: {args[0].value} has no reference",
                      file=sys.stderr)
                bad += 1
                continue
            if isinstance(ref, ast.Name) and ref.id in ops.defs:
                ref = ops.defs[ref.id]
            found = ops.of(ref)
            grad = "torch.autograd.grad" in found or ".backward" in found
            # a backward's reference is autograd of sum(dout * out): the sum is the test's
            found = [o for o in found if o not in ("torch.autograd.grad", ".backward")
                     and not (grad and o == ".sum")]
            rows.append((where, args[0].value, found, grad))
    if bad:
        sys.exit(1)
    # the dashes set the PDF's column widths (pandoc: relative to their counts)
    print("| chapter | C function | computed in PyTorch with |")
    print("|------|----------------|------------------------------|")
    for where, name, found, grad in rows:
        chapter = where[2:].lstrip("0") if where.startswith("ch") else "5 (`fast/`)"
        short = [o.replace("torch.nn.functional.", "F.").replace("torch.nn.", "nn.")
                 for o in found]
        ops_text = ", ".join(f"`{o}`" for o in short) or "(plain Python)"
        if grad:
            ops_text = "autograd of " + ops_text
        print(f"| {chapter} | `{name}` | {ops_text} |")


if __name__ == "__main__":
    main()
