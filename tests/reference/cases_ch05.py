"""cases_ch05.py -- chapter 5's attention variants against PyTorch (float64).
Torch 1.13 has no relative-position, sparse, linear or flash attention
modules, so each reference is the defining formula written with torch ops;
the library computes the same thing another way (index lists, the reordering
phi(Q)(phi(K)^T V), running sums, blocks of keys with an online softmax)."""
from reflib import *  # noqa: F401,F403


def rel_idx(n, m, k):
    return (torch.arange(m)[None, :] - torch.arange(n)[:, None]).clamp(-k, k) + k


def ref_relpos(c):
    n, m, d_k, d_v, k_max = c.ints
    q, k, v, ek = (c.t(i) for i in range(4))
    idx = rel_idx(n, m, k_max)
    a_k = ek[idx]                                          # (n, m, d_k)
    s = (q[:, None, :] * (k[None, :, :] + a_k)).sum(-1) / math.sqrt(d_k)
    w = masked_softmax(s, as_bool(c.ins[5]))
    out = w @ v
    if c.ins[4] is not None:
        out = out + (w[:, :, None] * c.t(4)[idx]).sum(1)  # sum_j w_ij a_V(j - i)
    return [out, w]


def make_relpos(rng, n, m, d_k, d_v, k_max):
    rows = 2 * k_max + 1
    ev = randn(rng, rows, d_v, scale=0.5) if rng.random() < 0.7 else None
    return Case([n, m, d_k, d_v, k_max], [], [
        randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
        randn(rng, rows, d_k, scale=0.5), ev, rand_mask(rng, n, m)])


def visible(n, window, stride, causal):
    i = torch.arange(n)[:, None]
    j = torch.arange(n)[None, :]
    dist = (i - j).abs()
    vis = (dist <= window) if window >= 0 else torch.zeros(n, n, dtype=torch.bool)
    if stride > 0:
        vis = vis | (dist % stride == 0)
    if causal:
        vis = vis & (j <= i)
    return vis


def make_sparse(rng, n, d_k, d_v, window, stride):
    window = int(rng.integers(-1, window + 1))
    stride = int(rng.integers(0, stride + 1))
    return Case([n, d_k, d_v, window, stride, int(rng.random() < 0.3)], [], [
        randn(rng, n, d_k), randn(rng, n, d_k), randn(rng, n, d_v)])


def ref_sparse(c):
    n, d_k, d_v, window, stride, causal = c.ints
    return sdpa(c.t(0), c.t(1), c.t(2), visible(n, window, stride, causal))[:1]


def phi(x):
    return F.elu(x) + 1


def ref_linattn_quadratic(c):
    w = phi(c.t(0)) @ phi(c.t(1)).T
    mask = as_bool(c.ins[3])
    if mask is not None:
        w = w.masked_fill(~mask, 0.0)
    den = w.sum(-1, keepdim=True)
    w = torch.where(den > 0, w / den, torch.zeros_like(w))
    return [w @ c.t(2), w]


def ref_linattn(c):
    pq, pk, v = phi(c.t(0)), phi(c.t(1)), c.t(2)
    return [(pq @ (pk.T @ v)) / (pq @ pk.sum(0))[:, None]]


def ref_linattn_causal(c):
    w = (phi(c.t(0)) @ phi(c.t(1)).T).tril()
    return [(w @ c.t(2)) / w.sum(-1, keepdim=True)]


def ref_hard(c):
    q, k, v = c.t(0), c.t(1), c.t(2)
    s = q @ k.T
    mask = as_bool(c.ins[3])
    if mask is not None:
        s = s.masked_fill(~mask, -INF)
    idx = s.argmax(-1)
    empty = torch.isinf(s).all(-1) if mask is not None else torch.zeros(
        q.shape[0], dtype=torch.bool)
    out = torch.where(empty[:, None], torch.zeros(1, dtype=v.dtype), v[idx])
    return [out, torch.where(empty, torch.tensor(-1), idx).double()]


QKV = dict(n=(64, 512), m=(64, 512), d_k=(32, 128), d_v=(32, 128))

TABLE = [
    # --- chapter 5: relative.h ----------------------------------------------------
    Fn("relpos_index", dict(n=(64, 300), m=(64, 300), k_max=(16, 64)),
       lambda rng, n, m, k_max: Case([n, m, k_max - 1]),      # k_max 0 included
       lambda c: [rel_idx(*c.ints).double()], **EXACT),
    Fn("relpos_forward", dict(n=(48, 256), m=(48, 256), d_k=(16, 64), d_v=(16, 64),
                              k_max=(8, 64)),
       make_relpos, ref_relpos),

    # --- chapter 5: sparse.h --------------------------------------------------------
    Fn("sparse_forward", dict(n=(64, 512), d_k=(32, 64), d_v=(32, 64), window=(8, 64),
                              stride=(12, 64)),
       make_sparse, ref_sparse),
    Fn("sparse_forward_mask", QKV,
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m)]),
       lambda c: sdpa(c.t(0), c.t(1), c.t(2), as_bool(c.ins[3]))[:1]),

    # --- chapter 5: linear_attention.h ----------------------------------------------
    Fn("linattn_feature", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [
           randn(rng, n, scale=float(rng.choice([0.1, 1, 10])))]),
       lambda c: [phi(c.t(0))]),
    Fn("linattn_forward_quadratic", QKV,
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m)]),
       ref_linattn_quadratic),
    Fn("linattn_forward", QKV,
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v)]),
       ref_linattn),
    Fn("linattn_causal", dict(n=(64, 512), d_k=(32, 128), d_v=(32, 128)),
       lambda rng, n, d_k, d_v: Case([n, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, n, d_k), randn(rng, n, d_v)]),
       ref_linattn_causal),

    # --- chapter 5: online.h ----------------------------------------------------------
    Fn("online_softmax", dict(n=(300, 4096)),
       lambda rng, n: Case([n], [], [softmax_input(rng, n)]),
       lambda c: [c.t(0).softmax(-1)]),
    Fn("online_attention", dict(n=(64, 512), m=(64, 512), d_k=(32, 128),
                                d_v=(32, 128), block=(80, 600)),
       lambda rng, n, m, d_k, d_v, block: Case([n, m, d_k, d_v, block], [], [
           randn(rng, n, d_k, scale=2.0), randn(rng, m, d_k, scale=2.0),
           randn(rng, m, d_v), rand_mask(rng, n, m)]),
       lambda c: sdpa(c.t(0), c.t(1), c.t(2), as_bool(c.ins[3]))[:1]),

    # --- chapter 5: hard.h ------------------------------------------------------------
    Fn("hard_forward", QKV,
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m)]),
       ref_hard),
]
