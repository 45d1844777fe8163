"""reflib.py -- what every reference table shares: Case, Fn, random inputs,
and PyTorch helpers. test_reference.py holds chapters 1-4's table; each later
chapter keeps its own in cases_chNN.py, which starts with `from reflib import *`
and defines TABLE the same way (its C wrappers go into fns_chNN.c)."""
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


def make_stats_histogram(rng, n, bins):
    if rng.random() < 0.2:     # integers: values exactly on bin edges and ends
        return Case([n, bins], [-2.0, 2.0], [rng.integers(-3, 4, n)])
    return Case([n, bins], [f32(-rng.uniform(0, 3)), f32(rng.uniform(0.1, 3))],
                [randn(rng, n, scale=1.5)])


def ref_stats_histogram(c):
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


HEADS = heads_sizes
EXACT = dict(atol=0, rtol=0)
