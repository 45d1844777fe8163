#!/usr/bin/python3
"""test_reference.py DRIVER [--tap-start N] [--summary FILE] [NAME...]

Checks the C library against PyTorch. For every entry of TABLE below it draws
random cases (shapes with the edge sizes 1, odd sizes and long sequences), sends
them all to the C driver (tests/reference/driver.c) in one process call,
computes the same thing with PyTorch in float64 from the same float32 inputs,
and prints one TAP line per function with the largest difference found.
NAMEs limit the run to those functions; --summary writes a table of the
largest differences.

A value passes when |c - ref| <= atol + rtol |ref|, with atol = rtol = 1e-5
unless an entry says otherwise (and why). Functions that draw random numbers
are held to the distribution PyTorch's counterpart samples from instead.
Run with Debian's /usr/bin/python3, which has python3-torch and python3-numpy.

ADDING A FUNCTION takes one entry in TABLE here,

    Fn("softmax_rows_temp", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [temperature(rng)], [randn(rng, n, m)]),
       lambda c: [(c.t(0) / c.reals[0]).softmax(-1)]),

(name; sizes to draw, as name=(typical largest, long); a Case of integer
parameters, real parameters and float32 input arrays; the torch reference,
one tensor per output) and one in driver.c: a FN(name) wrapper that unpacks
the same parameters and arrays in the same order, plus ENTRY(name) in its TABLE.
"""
import math
import os
import subprocess
import sys
import traceback
import zlib

import numpy as np
import torch
import torch.nn.functional as F

ATOL = RTOL = 1e-5
N_CASES = 60            # random shapes per function (at least 50 asked for)
INF = float("inf")


# ---------------------------------------------------------------------------
# Cases and table entries

class Case:
    """One call: integer and real parameters, input arrays (None = absent,
    e.g. no mask), and notes for the failure messages."""

    def __init__(self, ints=(), reals=(), ins=(), **info):
        self.ints = [int(i) for i in ints]
        self.reals = [float(r) for r in reals]
        self.ins = [None if a is None else np.asarray(a, np.float32) for a in ins]
        self.info = info

    def t(self, k):
        """Input k as a float64 tensor of its shape (None if absent)."""
        a = self.ins[k]
        return None if a is None else torch.from_numpy(a.astype(np.float64))

    def __str__(self):
        shapes = ["-" if a is None else "x".join(map(str, a.shape)) for a in self.ins]
        extra = "".join(f" {k}={v}" for k, v in self.info.items())
        return (f"ints={self.ints} reals={[float(np.float32(r)) for r in self.reals]}"
                f" ins=({', '.join(shapes)}){extra}")


class Fn:
    """A table entry.

    name    the C function (and the driver's TABLE name)
    spec    the sizes to draw: a dict name=(typical largest, long) for sizes(),
            or a function rng -> list of dicts of sizes
    make    (rng, **sizes) -> Case
    ref     Case -> list of expected outputs (tensors or arrays); their sizes
            tell the driver how long each output is
    atol, rtol
            the tolerance; loosen only with the reason in a comment
    status  (Case, status) -> True if the function's return value is right
    check   statistical entries, instead of ref: (cases, statuses, outputs)
            -> (max |diff|, text for the TAP line, list of failures);
            out_sizes(Case) then gives the output lengths
    """

    def __init__(self, name, spec, make, ref=None, atol=ATOL, rtol=RTOL, status=None,
                 check=None, out_sizes=None):
        self.name, self.spec, self.make, self.ref = name, spec, make, ref
        self.atol, self.rtol = atol, rtol
        self.status = status or (lambda case, s: s == 0)
        self.check, self.out_sizes = check, out_sizes

    def cases(self, rng):
        dims = self.spec(rng) if callable(self.spec) else sizes(rng, **self.spec)
        return [self.make(rng, **d) for d in dims]


# ---------------------------------------------------------------------------
# Random inputs

def randn(rng, *shape, scale=1.0, mean=0.0):
    return (mean + scale * rng.standard_normal(shape)).astype(np.float32)


def uniform(rng, *shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def f32(x):
    """x rounded to float32, as a Python float: a real parameter the C code
    receives as float must be exactly the value the reference uses."""
    return float(np.float32(x))


def log_uniform(rng, lo, hi):
    return f32(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def stochastic(rng, n, m, sharp=None):
    """(n, m) rows of softmax(random scores): attention weights."""
    sharp = rng.choice([0.3, 1.0, 3.0, 10.0]) if sharp is None else sharp
    s = rng.standard_normal((n, m)) * sharp
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)


def sizes(rng, count=N_CASES, **spec):
    """count dicts of sizes; spec: name=(typical largest, long). The first
    cases are the edges: every size 1; every size long; each size long with
    the others small; each size 1 with the others typical; all sizes odd.
    The rest are random, with 1, odd and long sizes over-represented."""
    names = list(spec)
    out = [{k: 1 for k in names}, {k: spec[k][1] for k in names}]
    for k in names:
        out.append({j: spec[j][1] if j == k else int(rng.integers(1, 9))
                    for j in names})
    for k in names:
        out.append({j: 1 if j == k else int(rng.integers(1, spec[j][0] + 1))
                    for j in names})
    out.append({k: int(rng.integers(0, (spec[k][0] + 1) // 2)) * 2 + 1 for k in names})
    while len(out) < count:
        d = {}
        for k in names:
            u, top = rng.random(), spec[k][0]
            if u < 0.12:
                d[k] = 1
            elif u < 0.4:
                d[k] = int(rng.integers(0, (top + 1) // 2)) * 2 + 1
            elif u < 0.45:
                d[k] = spec[k][1]
            else:
                d[k] = int(rng.integers(1, top + 1))
        out.append(d)
    return out


def heads_sizes(rng, count=N_CASES, long=512):
    """Multi-head sizes: dicts of n, m, d (= h d_k) and h, edges first."""
    out = [(1, 1, 1, 1), (1, 1, 8, 8), (long, long, 16, 4), (long, 3, 8, 2),
           (3, long, 6, 3), (7, 5, 12, 1), (5, 7, 15, 5), (2, 9, 64, 8)]
    while len(out) < count:
        h = int(rng.choice([1, 2, 3, 4, 8]))
        d_k = int(rng.choice([1, 2, 3, 5, 8, 16]))
        n, m = (int(rng.choice([1, 2, 3, int(rng.integers(1, 65))])) for _ in range(2))
        out.append((n, m, h * d_k, h))
    return [dict(n=n, m=m, d=d, h=h) for n, m, d, h in out]


MASK_KINDS = ["none", "random", "causal", "padding", "empty_rows"]


def rand_mask(rng, n, m, allow_empty=True):
    """(n, m) 0/1 mask (1 = visible) or None (no mask): random, causal,
    padding (the last keys hidden), and (allow_empty) random with some rows
    hiding every key."""
    kinds = MASK_KINDS if allow_empty else MASK_KINDS[:-1]
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "none":
        return None
    if kind == "causal":
        mask = np.tril(np.ones((n, m)), k=max(m - n, 0))
    elif kind == "padding":
        mask = np.ones((n, m))
        mask[:, m - int(rng.integers(0, m)):] = 0 if m > 1 else 1
    else:
        mask = (rng.random((n, m)) < rng.uniform(0.2, 0.9)).astype(float)
        if kind == "empty_rows":
            mask[rng.random(n) < 0.3] = 0
            mask[rng.integers(n)] = 0      # at least one row with nothing visible
    if not allow_empty:                    # every row keeps one visible key
        empty = mask.sum(-1) == 0
        mask[empty, rng.integers(0, m, empty.sum())] = 1
    return mask.astype(np.float32)


def softmax_input(rng, *shape):
    """Scores of every magnitude, including ones exp() would overflow on."""
    scale = rng.choice([0.1, 1.0, 5.0, 100.0])
    mean = rng.choice([0.0, 0.0, 1000.0, -1000.0])
    return randn(rng, *shape, scale=scale, mean=mean)


def weights_matrix(rng, n, m):
    """Attention weights, sometimes with exact zeros (hidden keys), sometimes
    with rows that do not quite sum to 1 (so the row sum error is not 0)."""
    w = stochastic(rng, n, m)
    u = rng.random()
    if u < 0.3:
        w[rng.random((n, m)) < 0.3] = 0
    elif u < 0.5:
        w = (w * rng.uniform(0.9, 1.1, (n, 1))).astype(np.float32)
    return w


def with_zero_row(rng, x):
    """x with one row set to zero (a vector without direction), if n > 2."""
    if x.shape[0] > 2:
        x[int(rng.integers(x.shape[0]))] = 0
    return x


def xavier(rng, d_in, d_out, gain=1.0):
    a = gain * math.sqrt(6.0 / (d_in + d_out))
    return uniform(rng, d_in, d_out, lo=-a, hi=a)


def mha_weights(rng, d):
    """W_Q, W_K, W_V, W_O (d, d) as mha_init draws them, and a small b_O."""
    return [xavier(rng, d, d) for _ in range(4)] + [randn(rng, d, scale=0.1)]


def ffn_weights(rng, d, f):
    return [xavier(rng, d, f), randn(rng, f, scale=0.1), xavier(rng, f, d),
            randn(rng, d, scale=0.1)]


def norm_weights(rng, d):
    return [randn(rng, d, scale=0.2, mean=1.0), randn(rng, d, scale=0.1)]


# ---------------------------------------------------------------------------
# Reference helpers (float64 torch)

def as_bool(mask):
    return None if mask is None else torch.from_numpy(mask != 0)


def sdpa(q, k, v, mask=None):
    """Scaled dot-product attention. torch 1.13 has no
    F.scaled_dot_product_attention, so this is the textbook formula.
    A row with no visible key gives NaN in torch; attention.h's convention is
    zero weights and a zero output row, so the NaN become 0."""
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~mask, -INF)
    w = torch.nan_to_num(s.softmax(-1), nan=0.0)
    return [w @ v, w]


def masked_softmax(x, mask):
    """softmax over the visible entries; torch gives NaN for a row with
    nothing visible, softmax.h says zeros."""
    if mask is None:
        return x.softmax(-1)
    return torch.nan_to_num(x.masked_fill(~mask, -INF).softmax(-1), nan=0.0)


def entr_rows(w):
    return torch.special.entr(w).sum(-1)          # -sum p log p, with 0 log 0 = 0


def n_params(module):
    return sum(p.numel() for p in module.parameters())


def load_mha(mha, wq, wk, wv, wo, bo):
    """The library's weights into an nn.MultiheadAttention. The library
    computes x W with W (d_in, d_out); nn.Linear computes x W^T, so every
    weight goes in transposed. The library has no input-projection bias."""
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([wq.T, wk.T, wv.T]))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(wo.T)
        mha.out_proj.bias.copy_(bo)
    return mha


def load_linear(lin, w, b):
    with torch.no_grad():
        lin.weight.copy_(w.T)
        lin.bias.copy_(b)


def load_norm(ln, gamma, beta):
    with torch.no_grad():
        ln.weight.copy_(gamma)
        ln.bias.copy_(beta)


def ffn_module(t, d, f):
    """nn.Sequential(Linear, ReLU, Linear) holding W_1, b_1, W_2, b_2 = t."""
    seq = torch.nn.Sequential(torch.nn.Linear(d, f), torch.nn.ReLU(),
                              torch.nn.Linear(f, d)).double()
    load_linear(seq[0], t[0], t[1])
    load_linear(seq[2], t[2], t[3])
    return seq


# ---------------------------------------------------------------------------
# Cases and references too long for a table line

def make_mha(rng, n, m, d, h):
    self_attn = rng.random() < 0.3              # keys and values from the queries
    m = n if self_attn else m
    xq = randn(rng, n, d)
    xkv = xq if self_attn else randn(rng, m, d)
    return Case([n, m, d, h], [], [xq, xkv] + mha_weights(rng, d)
                + [rand_mask(rng, n, m)])


def ref_mha(c):
    n, m, d, h = c.ints
    mha = load_mha(torch.nn.MultiheadAttention(d, h, dtype=torch.float64),
                   *[c.t(k) for k in range(2, 7)])
    mask = as_bool(c.ins[7])
    out, w = mha(c.t(0), c.t(1), c.t(1), need_weights=True, average_attn_weights=False,
                 attn_mask=None if mask is None else ~mask)
    if mask is not None:
        # A query that may see no key: torch returns NaN; the library's
        # convention (attention.h) is zero weights, hence a zero context and
        # an output row equal to b_O.
        empty = ~mask.any(-1)
        w = torch.nan_to_num(w, nan=0.0)
        out = torch.where(empty[:, None], c.t(6)[None, :], out)
    return [out, w]


def make_encoder(rng, n, m, d, h):
    f = int(rng.choice([1, 3, 4 * d]))
    ws = mha_weights(rng, d) + norm_weights(rng, d) + ffn_weights(rng, d, f) \
        + norm_weights(rng, d)
    # torch gives NaN rows for a query that sees nothing: every row sees a key
    mask = rand_mask(rng, n, n, allow_empty=False)
    return Case([n, d, h, f], [], [randn(rng, n, d)] + ws + [mask])


def ref_encoder(c):
    n, d, h, f = c.ints
    t = [c.t(k) for k in range(14)]
    layer = torch.nn.TransformerEncoderLayer(d, h, f, dropout=0.0, dtype=torch.float64)
    load_mha(layer.self_attn, *t[1:6])
    load_norm(layer.norm1, *t[6:8])
    load_linear(layer.linear1, t[8], t[9])
    load_linear(layer.linear2, t[10], t[11])
    load_norm(layer.norm2, *t[12:14])
    mask = as_bool(c.ins[14])
    attn_mask = None if mask is None else ~mask
    y = layer(t[0], src_mask=attn_mask)
    _, w = layer.self_attn(t[0], t[0], t[0], attn_mask=attn_mask, need_weights=True,
                           average_attn_weights=False)
    return [y, w]


def make_decoder(rng, n, m, d, h):
    f = int(rng.choice([1, 3, 4 * d]))
    ws = mha_weights(rng, d) + norm_weights(rng, d) + mha_weights(rng, d) \
        + norm_weights(rng, d) + ffn_weights(rng, d, f) + norm_weights(rng, d)
    self_mask = rand_mask(rng, n, n, allow_empty=False)
    if self_mask is not None:
        np.fill_diagonal(self_mask, 1)     # with the causal mask: row i sees i
    cross_mask = rand_mask(rng, n, m, allow_empty=False)
    return Case([n, m, d, h, f], [], [randn(rng, n, d), randn(rng, m, d)] + ws
                + [self_mask, cross_mask])


def ref_decoder(c):
    n, m, d, h, f = c.ints
    t = [c.t(k) for k in range(22)]
    layer = torch.nn.TransformerDecoderLayer(d, h, f, dropout=0.0, dtype=torch.float64)
    load_mha(layer.self_attn, *t[2:7])
    load_norm(layer.norm1, *t[7:9])
    load_mha(layer.multihead_attn, *t[9:14])
    load_norm(layer.norm2, *t[14:16])
    load_linear(layer.linear1, t[16], t[17])
    load_linear(layer.linear2, t[18], t[19])
    load_norm(layer.norm3, *t[20:22])
    visible = torch.ones(n, n, dtype=torch.bool).tril()     # causal ...
    if c.ins[22] is not None:
        visible &= as_bool(c.ins[22])                       # ... and self_mask
    cross = as_bool(c.ins[23])
    tgt_mask, mem_mask = ~visible, None if cross is None else ~cross
    x, enc = t[0], t[1]
    y = layer(x, enc, tgt_mask=tgt_mask, memory_mask=mem_mask)
    sa, self_w = layer.self_attn(x, x, x, attn_mask=tgt_mask, need_weights=True,
                                 average_attn_weights=False)
    h1 = layer.norm1(x + sa)
    _, cross_w = layer.multihead_attn(h1, enc, enc, attn_mask=mem_mask,
                                      need_weights=True, average_attn_weights=False)
    return [y, self_w, cross_w]


def make_self_attn(rng, n, d_model, d_k, d_v):
    # weights as self_attn_init draws them (Xavier)
    w = [xavier(rng, d_model, dd) for dd in (d_k, d_k, d_v)]
    bias = rng.random() < 0.5
    b = [randn(rng, dd, scale=0.1) if bias else None for dd in (d_k, d_k, d_v)]
    return Case([n, d_model, d_k, d_v], [], [randn(rng, n, d_model)] + w + b
                + [rand_mask(rng, n, n)])


def ref_self_attn(c):
    proj = [c.t(0) @ c.t(k) + (0 if c.ins[k + 3] is None else c.t(k + 3))
            for k in (1, 2, 3)]
    out, w = sdpa(*proj, as_bool(c.ins[7]))
    return proj + [w, out]


def ref_linear_backward(c):
    x, w, dy, dx0, dw0, db0 = (c.t(k) for k in range(6))
    x.requires_grad_(True)
    w.requires_grad_(True)
    b = torch.zeros(w.shape[1], dtype=torch.float64, requires_grad=True)
    (x @ w + b).backward(dy)
    return [dx0 + x.grad, dw0 + w.grad, db0 + b.grad]     # the gradients accumulate


def ref_softmax_backward(c):
    # Through autograd: x = log p gives softmax(x) = p (up to p's rounding).
    x = torch.log(c.t(0)).requires_grad_(True)
    x.softmax(-1).backward(c.t(1))
    return [x.grad]


def ref_pattern(c):
    w, n = c.t(0), c.ints[0]
    i = torch.arange(n)
    band = (i[:, None] - i[None, :]).abs() <= 1       # PATTERN_RADIUS = 1
    entropy = entr_rows(w).mean()
    small = f32(0.1 / n)                              # PATTERN_SMALL / n, a float
    return [torch.stack([(w * band).sum(-1).mean(), w.diagonal().mean(),
                         (w < small).double().mean(), entropy,
                         entropy / math.log(n) if n > 1 else torch.tensor(0.0),
                         w.max()])]


def make_power(rng, n):
    """Matrices with one real dominant eigenvalue (Perron-Frobenius):
    attention weights (eigenvalue 1) and positive matrices."""
    if rng.random() < 0.5:
        a = stochastic(rng, n, n, sharp=rng.choice([0.3, 1.0, 2.0]))
    else:
        a = uniform(rng, n, n, lo=0.0, hi=1.0)
    return Case([n, int(rng.integers(2)), 100000], [1e-12],
                [a, uniform(rng, n, lo=0.1, hi=1.0)])


def ref_power(c):
    a, left = c.t(0), c.ints[1]
    vals, vecs = torch.linalg.eig(a.T if left else a)
    j = int(vals.abs().argmax())
    assert abs(vals[j].imag) < 1e-9, "dominant eigenvalue is not real"
    v = vecs[:, j].real
    return [vals[j].real.reshape(1), v / v.norm()]


def make_histogram(rng, n, bins):
    if rng.random() < 0.2:     # integers: values exactly on bin edges and ends
        return Case([n, bins], [-2.0, 2.0], [rng.integers(-3, 4, n)])
    return Case([n, bins], [f32(-rng.uniform(0, 3)), f32(rng.uniform(0.1, 3))],
                [randn(rng, n, scale=1.5)])


def ref_histogram(c):
    x, (lo, hi) = c.t(0), c.reals
    counted = ((x >= lo) & (x <= hi)).sum().reshape(1)
    return [torch.cat([torch.histc(x, c.ints[1], lo, hi), counted.double()])]


def ref_locality(c):
    n, m, radius = c.ints
    band = (torch.arange(n)[:, None] - torch.arange(m)[None, :]).abs() <= radius
    return [(c.t(0) * band).sum(-1).mean().reshape(1)]


def angle_input(rng, n):
    """Cosines, including exactly +-1, 0 and rounding just past +-1."""
    c = uniform(rng, n, lo=-1.05, hi=1.05)
    edges = [1.0, -1.0, 0.0, 1.0000001, -1.0000001]
    c[:min(n, 5)] = edges[:min(n, 5)]
    return c


# ---------------------------------------------------------------------------
# Statistical checks (functions that draw random numbers)

def dropout_spec(rng):
    """Sizes plus p (0 and 1 first) and how many draws to average."""
    out = []
    for i, s in enumerate(sizes(rng, n=(300, 1024))):
        p = [0.0, 1.0, 0.5, 0.1, 0.9][i] if i < 5 else f32(rng.uniform(0.02, 0.9))
        out.append(dict(s, p=p, reps=max(100, 50000 // s["n"])))
    return out


def make_dropout(rng, n, p, reps):
    x = randn(rng, n, scale=rng.choice([0.1, 1.0, 10.0]))
    return Case([n, reps, rng.integers(1 << 31)], [p], [x])


def check_dropout(cases, statuses, outs):
    """dropout_forward has no deterministic torch counterpart (torch has its
    own generator), so it is held to what F.dropout(x, p, training=True)
    promises:
      - every output is 0 (dropped, keep = 0) or x / (1 - p) (kept, keep = 1),
        within the usual tolerance;
      - the kept fraction is 1 - p within 5 binomial standard errors;
      - the mean of `reps` draws is x within 6 standard errors, element by
        element (the stated tolerance: 6 |x| sqrt(p / ((1 - p) reps))); over
        all elements the standardised errors z have mean 0 +- 5/sqrt(N) and
        mean square 1 +- 5 sqrt(2/N): no bias, and the spread of inverted
        dropout;
      - p = 0 copies x exactly; p = 1 drops everything."""
    fails, max_diff, worst_frac, worst_z, zs = [], 0.0, 0.0, 0.0, []
    for i, (case, (y, keep)) in enumerate(zip(cases, outs)):
        x = case.ins[0].astype(np.float64)
        n, reps = case.ints[0], case.ints[1]
        p = case.reals[0]
        y, keep = y.reshape(reps, n), keep.reshape(reps, n)
        if not np.isin(keep, (0.0, 1.0)).all():
            fails.append(f"case {i} ({case}): keep has values other than 0 and 1")
            continue
        expect = keep * x * (1.0 / (1.0 - p)) if p < 1 else np.zeros_like(y)
        diff = np.abs(y - expect)
        max_diff = max(max_diff, float(diff.max()))
        if not (diff <= ATOL + RTOL * np.abs(expect)).all():
            j = np.unravel_index(np.argmax(diff - RTOL * np.abs(expect)), diff.shape)
            fails.append(f"case {i} ({case}): draw {j[0]} element {j[1]}: "
                         f"keep={keep[j]:g} x={x[j[1]]:.8g} expected {expect[j]:.8g} "
                         f"got {y[j]:.8g}")
        if p in (0.0, 1.0):
            if keep.mean() != 1.0 - p or (p == 0.0 and not (y == x).all()):
                fails.append(f"case {i} ({case}): p = {p} must keep "
                             f"{'everything unchanged' if p == 0 else 'nothing'}")
            continue
        frac, sd = keep.mean(), math.sqrt(p * (1 - p) / keep.size)
        worst_frac = max(worst_frac, abs(frac - (1 - p)) / sd)
        if abs(frac - (1 - p)) > 5 * sd:
            fails.append(f"case {i} ({case}): kept fraction {frac:.5f}, "
                         f"expected {1 - p:.5f} +- {5 * sd:.5f}")
        nz = x != 0
        z = (y.mean(0)[nz] - x[nz]) / (np.abs(x[nz]) * math.sqrt(p / (1 - p) / reps))
        zs.append(z)
        if z.size:
            worst_z = max(worst_z, float(np.abs(z).max()))
            if np.abs(z).max() > 6:
                fails.append(f"case {i} ({case}): mean of {reps} draws is "
                             f"{np.abs(z).max():.1f} standard errors from x")
    z = np.concatenate(zs) if zs else np.zeros(0)
    if z.size:
        if abs(z.mean()) > 5 / math.sqrt(z.size):
            fails.append(f"mean of draws is biased: mean z = {z.mean():.4f} over "
                         f"{z.size} elements (limit {5 / math.sqrt(z.size):.4f})")
        if abs((z * z).mean() - 1) > 5 * math.sqrt(2 / z.size):
            fails.append(f"spread of the mean of draws is off: mean z^2 = "
                         f"{(z * z).mean():.4f}, expected 1 +- "
                         f"{5 * math.sqrt(2 / z.size):.4f}")
    text = (f"max |diff| {max_diff:.1e} (outputs vs keep x/(1-p)), kept fraction "
            f"within {worst_frac:.1f} sd, mean of draws within {worst_z:.1f} sd "
            f"(limit 6), mean z^2 {(z * z).mean() if z.size else 1:.3f}")
    return max_diff, text, fails


def ks_distance(sample, cdf):
    """Kolmogorov-Smirnov distance: the largest difference between the
    sample's distribution function and cdf."""
    s = np.sort(sample.astype(np.float64))
    c = cdf(s)
    k = np.arange(1, s.size + 1) / s.size
    return float(max((k - c).max(), (c - (k - 1.0 / s.size)).max()))


def check_init(kind):
    """Weight initialisers against the distribution torch.nn.init samples:
    uniform_(w, -b, b), normal_(w, 0, std), xavier_uniform_(w) (its bound
    from torch's own fan computation for nn.Linear's (d_out, d_in) weight).
    Per case: the bound holds, and the Kolmogorov-Smirnov distance to the
    distribution is below 2.7 / sqrt(N) (false alarm rate < 1e-6)."""
    def check(cases, statuses, outs):
        fails, worst, worst_d = [], 0.0, 0.0
        for i, (case, (w,)) in enumerate(zip(cases, outs)):
            d_in, d_out = case.ints[0], case.ints[1]
            if kind == "normal":
                std, bound = case.reals[0], INF
                def cdf(v):
                    return (0.5 * (1 + torch.erf(torch.from_numpy(v) / (std * 2 ** 0.5))
                                   )).numpy()
            else:
                if kind == "xavier":
                    fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(
                        torch.empty(d_out, d_in))
                    bound = math.sqrt(6.0 / (fan_in + fan_out))
                else:
                    bound = case.reals[0]
                def cdf(v, b=bound):
                    return np.clip((v + b) / (2 * b), 0, 1)
            if not (np.abs(w) <= f32(bound) * (1 + 1e-6)).all():
                fails.append(f"case {i} ({case}): |w| up to {np.abs(w).max():.8g} "
                             f"> bound {bound:.8g}")
            d = ks_distance(w, cdf)
            worst_d, worst = max(worst_d, d), max(worst, d * math.sqrt(w.size))
            if d * math.sqrt(w.size) > 2.7:
                fails.append(f"case {i} ({case}): KS distance "
                             f"{d * math.sqrt(w.size):.2f}/sqrt(N) > 2.7/sqrt(N)")
        text = (f"max |diff| {worst_d:.1e} between distribution functions "
                f"(KS), at most {worst:.2f}/sqrt(N) (limit 2.7)")
        return worst_d, text, fails
    return check


def init_spec(rng):
    out = sizes(rng, d_in=(64, 512), d_out=(64, 512))
    for s in out:                   # at least 256 numbers for a distribution test
        s["d_out"] = max(s["d_out"], -(-256 // s["d_in"]))
    return out


def make_init(with_real):
    def make(rng, d_in, d_out):
        reals = [f32(rng.uniform(0.01, 3.0))] if with_real else []
        return Case([d_in, d_out, rng.integers(1 << 31)], reals)
    return make


# ---------------------------------------------------------------------------
# THE TABLE: one entry per library function with a PyTorch counterpart,
# in the order of the book.

HEADS = heads_sizes
EXACT = dict(atol=0, rtol=0)

TABLE = [
    # --- mat.h: the matrix helpers every chapter uses --------------------------
    Fn("mat_mul", dict(n=(64, 512), k=(64, 1024), m=(64, 512)),
       lambda rng, n, k, m: Case([n, k, m], [], [randn(rng, n, k), randn(rng, k, m)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("mat_mul_bt", dict(n=(64, 512), k=(64, 1024), m=(64, 512)),
       lambda rng, n, k, m: Case([n, k, m], [], [randn(rng, n, k), randn(rng, m, k)]),
       lambda c: [c.t(0) @ c.t(1).T]),
    Fn("mat_transpose", dict(n=(64, 1024), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).T], **EXACT),
    Fn("mat_scale", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [f32(rng.normal(0, 3))], [randn(rng, n)]),
       lambda c: [c.t(0) * c.reals[0]]),
    Fn("mat_add", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [randn(rng, n), randn(rng, n)]),
       lambda c: [c.t(0) + c.t(1)]),
    Fn("mat_add_row", dict(n=(64, 1024), m=(64, 512)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m), randn(rng, m)]),
       lambda c: [c.t(0) + c.t(1)]),
    Fn("vec_dot", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n), randn(rng, n)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("vec_norm", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n)]),
       lambda c: [c.t(0).norm()]),

    # --- stats.h ---------------------------------------------------------------
    Fn("stats_of", dict(n=(300, 100000)),
       lambda rng, n: Case([n], [], [randn(rng, n, scale=rng.choice([0.01, 1.0, 100.0]),
                                           mean=rng.choice([0.0, 1000.0]))]),
       lambda c: [torch.stack([c.t(0).mean(), c.t(0).std(unbiased=False),
                               c.t(0).min(), c.t(0).max()])]),
    # counts must be exact: random data never lands on a bin edge, and the
    # integer data lands exactly on edges, which both compute exactly
    Fn("histogram", dict(n=(300, 10000), bins=(40, 200)), make_histogram,
       ref_histogram, **EXACT),

    # --- chapter 1: scoring.h, kernel_regression.h, geometry.h -------------------
    Fn("score_dot", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [(c.t(0) * c.t(1)).sum(-1)]),
    Fn("score_scaled_dot", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [(c.t(0) * c.t(1)).sum(-1) / c.ints[1] ** 0.5]),
    # a zero vector has no direction: both give 0
    Fn("score_cosine", dict(n=(20, 200), d=(64, 4096)),
       lambda rng, n, d: Case([n, d], [], [with_zero_row(rng, randn(rng, n, d)),
                                           randn(rng, n, d, scale=3)]),
       lambda c: [F.cosine_similarity(c.t(0), c.t(1), dim=-1)]),
    Fn("score_additive", dict(n=(10, 100), d_q=(32, 512), d_k=(32, 512), d_h=(32, 512)),
       lambda rng, n, d_q, d_k, d_h: Case([n, d_q, d_k, d_h], [], [
           randn(rng, n, d_q), randn(rng, n, d_k), randn(rng, d_h, d_q, scale=0.3),
           randn(rng, d_h, d_k, scale=0.3), randn(rng, d_h)]),
       lambda c: [torch.tanh(c.t(0) @ c.t(2).T + c.t(1) @ c.t(3).T) @ c.t(4)]),
    # with ties (integer scores) the first largest score wins, as in argmax
    Fn("hard_attention", dict(n=(20, 100), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [
           rng.integers(0, 3, (n, m)) if rng.random() < 0.3 else randn(rng, n, m)]),
       lambda c: [F.one_hot(c.t(0).argmax(-1), c.ints[1])], **EXACT),
    Fn("gaussian_kernel", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [f32(rng.uniform(0.05, 3))], [randn(rng, n, scale=2)]),
       lambda c: [torch.exp(-c.t(0) ** 2 / (2 * c.reals[0] ** 2))]),
    Fn("nw_weights", dict(n_q=(64, 1024), n_t=(64, 1024)),
       lambda rng, n_q, n_t: Case([n_q, n_t], [f32(rng.uniform(0.1, 2))], [
           uniform(rng, n_q, lo=0, hi=5), uniform(rng, n_t, lo=0, hi=5)]),
       lambda c: [(-(c.t(0)[:, None] - c.t(1)[None, :]) ** 2
                   / (2 * c.reals[0] ** 2)).softmax(-1)]),
    Fn("nw_predict", dict(n_q=(64, 1024), n_t=(64, 1024)),
       lambda rng, n_q, n_t: Case([n_q, n_t], [], [stochastic(rng, n_q, n_t),
                                                   randn(rng, n_t)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("row_norms", dict(n=(64, 1024), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d)]),
       lambda c: [c.t(0).norm(dim=-1)]),
    Fn("cosine_matrix", dict(n=(32, 512), m=(32, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [with_zero_row(rng, randn(rng, n, d)),
                                                 randn(rng, m, d)]),
       lambda c: [F.normalize(c.t(0), dim=-1) @ F.normalize(c.t(1), dim=-1).T]),
    Fn("angle_degrees", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [angle_input(rng, n)]),
       lambda c: [torch.rad2deg(torch.acos(c.t(0).clamp(-1, 1)))]),

    # --- chapter 2: softmax.h -----------------------------------------------------
    # softmax_naive overflows by design for scores > ~88: small scores only
    Fn("softmax_naive", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [randn(rng, n, scale=3)]),
       lambda c: [c.t(0).softmax(-1)]),
    Fn("softmax", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [softmax_input(rng, n)]),
       lambda c: [c.t(0).softmax(-1)]),
    Fn("softmax_rows", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [softmax_input(rng, n, m)]),
       lambda c: [c.t(0).softmax(-1)]),
    # x / t is rounded to float before exp(), an error of ~6e-8 |x / t| in the
    # exponent; scores and temperatures keep |x / t| below ~100, so that stays
    # well within the standard tolerance
    Fn("softmax_rows_temp", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [log_uniform(rng, 0.05, 20)], [
           randn(rng, n, m, scale=rng.choice([0.3, 1.0, 3.0]))]),
       lambda c: [(c.t(0) / c.reals[0]).softmax(-1)]),
    Fn("softmax_rows_masked", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [softmax_input(rng, n, m),
                                           rand_mask(rng, n, m)]),
       lambda c: [masked_softmax(c.t(0), as_bool(c.ins[1]))]),
    Fn("softmax_jacobian", dict(n=(64, 512)),
       lambda rng, n: Case([n], [], [stochastic(rng, 1, n)[0]]),
       lambda c: [torch.autograd.functional.jacobian(
           lambda x: x.softmax(-1), torch.log(c.t(0)), vectorize=True)]),
    Fn("softmax_backward", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [stochastic(rng, 1, n)[0], randn(rng, n)]),
       ref_softmax_backward),

    # --- chapter 2: attention.h ---------------------------------------------------
    Fn("attention_scores", dict(n=(64, 512), m=(64, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [randn(rng, n, d), randn(rng, m, d)]),
       lambda c: [c.t(0) @ c.t(1).T / math.sqrt(c.ints[2])]),
    Fn("attention_combine", dict(n=(64, 512), m=(64, 512), d=(64, 256)),
       lambda rng, n, m, d: Case([n, m, d], [], [stochastic(rng, n, m),
                                                 randn(rng, m, d)]),
       lambda c: [c.t(0) @ c.t(1)]),
    Fn("attention_forward",
       dict(n=(64, 512), m=(64, 512), d_k=(64, 128), d_v=(64, 128)),
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m)]),
       lambda c: sdpa(c.t(0), c.t(1), c.t(2), as_bool(c.ins[3]))),

    # --- chapter 2: attn_stats.h --------------------------------------------------
    Fn("row_entropy", dict(m=(300, 4096)),
       lambda rng, m: Case([m], [], [weights_matrix(rng, 1, m)[0]]),
       lambda c: [entr_rows(c.t(0)).reshape(1)]),
    Fn("attn_mean_entropy", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [weights_matrix(rng, n, m)]),
       lambda c: [entr_rows(c.t(0)).mean().reshape(1)]),
    Fn("attn_row_sum_error", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [weights_matrix(rng, n, m)]),
       lambda c: [(c.t(0).sum(-1) - 1).abs().max().reshape(1)]),
    Fn("attn_max_weight", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).max().reshape(1)], **EXACT),
    Fn("attn_min_weight", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [], [randn(rng, n, m)]),
       lambda c: [c.t(0).min().reshape(1)], **EXACT),
    Fn("attn_diag_strength", dict(n=(64, 1024)),
       lambda rng, n: Case([n], [], [weights_matrix(rng, n, n)]),
       lambda c: [c.t(0).diagonal().mean().reshape(1)]),
    Fn("attn_locality", dict(n=(64, 512), m=(64, 512), radius=(4, 600)),
       lambda rng, n, m, radius: Case([n, m, radius - 1], [], [
           weights_matrix(rng, n, m)]),
       ref_locality),
    Fn("attn_sparsity", dict(n=(64, 512), m=(64, 1024)),
       lambda rng, n, m: Case([n, m], [f32(rng.uniform(0, 2) / m)], [
           weights_matrix(rng, n, m)]),
       lambda c: [(c.t(0) < c.reals[0]).double().mean().reshape(1)]),

    # --- chapter 2: dropout.h -----------------------------------------------------
    Fn("dropout_forward", dropout_spec, make_dropout, check=check_dropout,
       out_sizes=lambda c: [c.ints[0] * c.ints[1]] * 2),
    # the gradient of F.dropout with this keep mask, dy * keep / (1 - p);
    # F.dropout(p = 1) returns zeros, so its gradient is 0
    Fn("dropout_backward", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [[0.0, 1.0, 0.5][n % 3] if n < 4
                                 else f32(rng.uniform(0, 0.95))],
                           [randn(rng, n), (rng.random(n) < 0.5).astype(np.float32)]),
       lambda c: [c.t(0) * c.t(1) / (1 - c.reals[0]) if c.reals[0] < 1
                  else torch.zeros(c.ints[0])]),

    # --- chapter 2: spectral.h ----------------------------------------------------
    # status: iterations used (-1 = no convergence); an eigenvector's sign is
    # arbitrary, so run_entry() gives the reference the C result's sign
    Fn("power_iteration", dict(n=(64, 512)), make_power, ref_power,
       status=lambda c, s: s >= 1),
    Fn("max_abs_row_sum", dict(n=(64, 1024)),
       lambda rng, n: Case([n], [], [randn(rng, n, n)]),
       lambda c: [torch.linalg.matrix_norm(c.t(0), ord=INF).reshape(1)]),

    # --- chapter 3: linear.h ------------------------------------------------------
    Fn("linear_forward", dict(n=(64, 512), d_in=(64, 512), d_out=(64, 512)),
       lambda rng, n, d_in, d_out: Case([n, d_in, d_out], [], [
           randn(rng, n, d_in), xavier(rng, d_in, d_out),
           randn(rng, d_out) if rng.random() < 0.7 else None]),
       lambda c: [F.linear(c.t(0), c.t(1).T, c.t(2))]),
    # inputs x, w, dy and the starting dx, dw, db the gradients add to
    Fn("linear_backward", dict(n=(64, 512), d_in=(64, 512), d_out=(64, 512)),
       lambda rng, n, d_in, d_out: Case([n, d_in, d_out], [], [
           randn(rng, n, d_in), xavier(rng, d_in, d_out), randn(rng, n, d_out),
           randn(rng, n, d_in), randn(rng, d_in, d_out), randn(rng, d_out)]),
       ref_linear_backward),
    Fn("linear_init_uniform", init_spec, make_init(True), check=check_init("uniform"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),
    Fn("linear_init_normal", init_spec, make_init(True), check=check_init("normal"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),
    Fn("linear_init_xavier", init_spec, make_init(False), check=check_init("xavier"),
       out_sizes=lambda c: [c.ints[0] * c.ints[1]]),

    # --- chapter 3: self_attention.h, patterns.h ------------------------------------
    Fn("self_attention_simple", dict(n=(64, 512), d=(64, 256)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d, scale=d ** -0.25),
                                           rand_mask(rng, n, n)]),
       lambda c: sdpa(c.t(0), c.t(0), c.t(0), as_bool(c.ins[1]))),
    Fn("self_attn_forward", dict(n=(64, 512), d_model=(64, 128), d_k=(32, 64),
                                 d_v=(32, 64)),
       make_self_attn, ref_self_attn),
    Fn("pattern_measure", dict(n=(64, 512)),
       lambda rng, n: Case([n], [], [weights_matrix(rng, n, n)]),
       ref_pattern),

    # --- chapter 4: multihead.h ---------------------------------------------------
    Fn("mha_split_heads", HEADS,
       lambda rng, n, m, d, h: Case([n, h, d // h], [], [randn(rng, n, d)]),
       lambda c: [c.t(0).view(*c.ints).transpose(0, 1)], **EXACT),
    Fn("mha_concat_heads", HEADS,
       lambda rng, n, m, d, h: Case([n, h, d // h], [], [randn(rng, h, n, d // h)]),
       lambda c: [c.t(0).transpose(0, 1).reshape(c.ints[0], -1)], **EXACT),
    # against nn.MultiheadAttention loaded with the same weights
    Fn("mha_forward", HEADS, make_mha, ref_mha),
    Fn("mha_forward_loop", HEADS, make_mha, ref_mha),
    # nn.MultiheadAttention(d, h, bias=False) plus the output bias b_O
    Fn("mha_param_count", HEADS, lambda rng, n, m, d, h: Case([d, h]),
       lambda c: [torch.tensor([n_params(torch.nn.MultiheadAttention(
           *c.ints, bias=False, device="meta")) + c.ints[0]])], **EXACT),

    # --- chapter 4: layernorm.h, ffn.h, block.h -------------------------------------
    # rows far from 0 with a small spread, and every eps
    Fn("layernorm_forward", dict(n=(64, 512), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [f32(rng.choice([1e-5, 1e-5, 1e-6, 1e-3, 0.1]))],
                              [randn(rng, n, d, scale=rng.choice([1e-2, 1.0, 10.0]),
                                     mean=rng.choice([0.0, 0.0, 100.0]))]
                              + norm_weights(rng, d)),
       lambda c: [F.layer_norm(c.t(0), (c.ints[1],), c.t(1), c.t(2), c.reals[0])]),
    Fn("add_norm", dict(n=(64, 512), d=(64, 1024)),
       lambda rng, n, d: Case([n, d], [], [randn(rng, n, d), randn(rng, n, d)]
                              + norm_weights(rng, d)),
       lambda c: [F.layer_norm(c.t(0) + c.t(1), (c.ints[1],), c.t(2), c.t(3), 1e-5)]),
    # outputs: hidden = ReLU(x W_1 + b_1), then y
    Fn("ffn_forward", dict(n=(64, 512), d=(64, 256), f=(256, 1024)),
       lambda rng, n, d, f: Case([n, d, f], [], [randn(rng, n, d)]
                                 + ffn_weights(rng, d, f)),
       lambda c: [torch.relu(F.linear(c.t(0), c.t(1).T, c.t(2))),
                  ffn_module([c.t(k) for k in range(1, 5)], *c.ints[1:])(c.t(0))]),
    Fn("ffn_param_count", dict(d=(512, 1024), f=(2048, 4096)),
       lambda rng, d, f: Case([d, f]),
       lambda c: [torch.tensor([n_params(torch.nn.Sequential(
           torch.nn.Linear(*c.ints, device="meta"), torch.nn.ReLU(),
           torch.nn.Linear(*c.ints[::-1], device="meta")))])], **EXACT),
    # against nn.TransformerEncoderLayer / nn.TransformerDecoderLayer (post-norm,
    # ReLU, dropout 0) loaded with the same weights; d_ff is 1, 3 or 4 d_model
    Fn("encoder_block_forward", HEADS, make_encoder, ref_encoder),
    Fn("decoder_block_forward", HEADS, make_decoder, ref_decoder),
    # the torch layers' parameters less the input-projection biases, which the
    # library's attention does not have (3 d_model per attention layer)
    Fn("encoder_block_param_count", HEADS,
       lambda rng, n, m, d, h: Case([d, h, int(rng.choice([1, 3, 4 * d]))]),
       lambda c: [torch.tensor([n_params(torch.nn.TransformerEncoderLayer(
           *c.ints, device="meta")) - 3 * c.ints[0]])], **EXACT),
    Fn("decoder_block_param_count", HEADS,
       lambda rng, n, m, d, h: Case([d, h, int(rng.choice([1, 3, 4 * d]))]),
       lambda c: [torch.tensor([n_params(torch.nn.TransformerDecoderLayer(
           *c.ints, device="meta")) - 6 * c.ints[0]])], **EXACT),
]


# ---------------------------------------------------------------------------
# Talking to the driver

def request(name, case, out_lens):
    ins = [np.zeros(0, "<f4") if a is None else np.ascontiguousarray(a, "<f4").ravel()
           for a in case.ins]
    nums = case.ints + [a.size for a in ins] + list(out_lens)
    head = (f"{name} {len(case.ints)} {len(case.reals)} {len(ins)} {len(out_lens)} "
            + " ".join(map(str, nums))).rstrip() + "\n"
    return b"".join([head.encode(), np.asarray(case.reals, "<f8").tobytes()]
                    + [a.tobytes() for a in ins])


def run_driver(driver, name, cases, out_lens):
    """Every case in one driver process -> (statuses, outputs of every case)."""
    req = b"".join(request(name, c, lens) for c, lens in zip(cases, out_lens))
    proc = subprocess.run([driver], input=req, capture_output=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"driver exited with status {proc.returncode}: "
                           + proc.stderr.decode(errors="replace").strip()[-400:])
    buf, pos, statuses, outs = proc.stdout, 0, [], []
    for lens in out_lens:
        statuses.append(int(np.frombuffer(buf, "<i4", 1, pos)[0]))
        pos += 4
        arrays = []
        for n in lens:
            arrays.append(np.frombuffer(buf, "<f4", n, pos).astype(np.float64))
            pos += 4 * n
        outs.append(arrays)
    if pos != len(buf):
        raise RuntimeError(f"driver answered {len(buf)} bytes, expected {pos}")
    return statuses, outs


def as_array(x):
    if isinstance(x, torch.Tensor):
        x = x.detach().double().numpy()
    return np.asarray(x, np.float64).ravel()


def run_entry(fn, driver):
    """-> (ok, cases, max |diff|, worst diff / tolerance or None, text, failures)"""
    rng = np.random.default_rng(zlib.crc32(fn.name.encode()))   # per-function seed
    cases = fn.cases(rng)
    if fn.check:
        statuses, outs = run_driver(driver, fn.name, cases,
                                    [fn.out_sizes(c) for c in cases])
        fails = [f"case {i} ({c}): status {s}" for i, (c, s) in
                 enumerate(zip(cases, statuses)) if not fn.status(c, s)]
        max_diff, text, more = fn.check(cases, statuses, outs)
        return not (fails + more), len(cases), max_diff, None, text, fails + more
    refs = [[as_array(r) for r in fn.ref(c)] for c in cases]
    statuses, outs = run_driver(driver, fn.name, cases, [[r.size for r in rs]
                                                         for rs in refs])
    fails, max_diff, worst = [], 0.0, 0.0
    for i, (case, status, got, want) in enumerate(zip(cases, statuses, outs, refs)):
        if not fn.status(case, status):
            fails.append(f"case {i} ({case}): returned status {status}")
            continue
        for k, (g, r) in enumerate(zip(got, want)):
            if fn.name == "power_iteration" and k == 1 and g @ r < 0:
                r = -r                  # an eigenvector's sign is arbitrary
            diff = np.abs(g - r)
            tol = fn.atol + fn.rtol * np.abs(r)
            bad = ~(diff <= tol)                  # NaN counts as bad
            if np.isfinite(diff).any():
                max_diff = max(max_diff, float(diff[np.isfinite(diff)].max()))
            if np.isnan(diff).any():
                worst = INF
            elif diff.size and tol.min() > 0:
                worst = max(worst, float((diff / tol).max()))
            if bad.any():
                j = int(np.argmax(bad))
                fails.append(f"case {i} ({case}): output {k} element {j} of {r.size}: "
                             f"expected {r[j]:.9g}, got {g[j]:.9g} "
                             f"(|diff| {diff[j]:.3g}, {int(bad.sum())} element(s) off)")
    text = f"max |diff| {max_diff:.1e}"
    if not (fn.atol or fn.rtol):
        text += " (exact)"
    elif worst < INF:
        text += f", {100 * worst:.0f}% of tolerance"
    return not fails, len(cases), max_diff, worst, text, fails


def write_summary(path, rows):
    with open(path + ".tmp", "w") as f:
        f.write("# PyTorch reference tests (tests/reference.sh): the largest\n"
                "# |C - torch| per function, and how much of its tolerance that is.\n")
        f.write(f"# {'function':<24} {'cases':>5} {'max |diff|':>10} {'of tol':>7}  "
                f"{'tolerance':<24} result\n")
        for name, n, md, worst, tol, res in rows:
            of = "-" if worst is None or worst == INF or tol == "exact" \
                else f"{100 * worst:.0f}%"
            f.write(f"{name:<26} {n:>5} {md:>10.2e} {of:>7}  {tol:<24} {res}\n")
    os.replace(path + ".tmp", path)


def main(argv):
    args, driver, tap, summary, only = list(argv[1:]), None, 1, None, []
    while args:
        a = args.pop(0)
        if a == "--tap-start":
            tap = int(args.pop(0))
        elif a == "--summary":
            summary = args.pop(0)
        elif driver is None:
            driver = a
        else:
            only.append(a)
    if driver is None:
        print("usage: " + __doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    torch.set_num_threads(2)
    rows = []
    for name in only:
        if name not in {fn.name for fn in TABLE}:
            print(f"not ok {tap} - reference: no table entry named {name}")
            tap += 1
    for fn in TABLE:
        if only and fn.name not in only:
            continue
        try:
            ok, n, max_diff, worst, text, fails = run_entry(fn, driver)
        except Exception as e:          # the driver or a reference failed
            ok, n, max_diff, worst, text = False, 0, float("nan"), None, "error"
            fails = ([f"{type(e).__name__}: {e}"]
                     + traceback.format_exc().splitlines()[-6:])
        print(f"{'ok' if ok else 'not ok'} {tap} - {fn.name}: {n} shapes, {text}")
        for line in fails[:8]:
            print(f"# {line}")
        if len(fails) > 8:
            print(f"# ... and {len(fails) - 8} more")
        sys.stdout.flush()
        tap += 1
        tol = "statistical" if fn.check else "exact" if not (fn.atol or fn.rtol) \
            else f"{fn.atol:g} + {fn.rtol:g} |ref|"
        rows.append((fn.name, n, max_diff, worst, tol, "ok" if ok else "FAIL"))
    if summary:
        write_summary(summary, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
