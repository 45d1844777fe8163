"""cases_ch06.py -- chapter 6 (masks/mask.h, masks/kv_cache.h) against PyTorch.

Masks are sent and returned as 0/1 floats, 1 = visible. PyTorch's
nn.MultiheadAttention takes the opposite convention (True = masked, for both
attn_mask and key_padding_mask), so every reference negates the mask. A query
with no visible key gives NaN in PyTorch; the references assert that NaN and
then substitute the library's defined result (zero weights, output row b_O)."""
from reflib import *  # noqa: F401,F403

BIG = f32(1e30)             # stands for infinity in mask_round_half (inf - inf is NaN)


def square_sizes(rng, long=300):
    return [dict(n=n) for n in [1, 2, 3, long] + [int(rng.integers(1, 65))
                                                  for _ in range(N_CASES - 4)]]


def bool_mask(rng, n, m, p=None):
    p = rng.uniform(0.05, 0.95) if p is None else p
    return (rng.random((n, m)) < p).astype(np.float32)


def ref_mask_stats(c):
    m = as_bool(c.ins[0])
    n, mm = c.ints
    rows = m.sum(-1).double()
    dist = (torch.arange(n)[:, None] - torch.arange(mm)[None, :]).abs()
    far = dist[m].max() if m.any() else torch.tensor(-1)
    return [torch.tensor([m.double().mean(), rows.mean(), rows.max(), rows.min(),
                          (rows == 0).sum(), far], dtype=torch.float64)]


def ref_mask_reach(c):
    n, layers = c.ints
    a = as_bool(c.ins[0]) | torch.eye(n, dtype=torch.bool)
    return [(torch.linalg.matrix_power(a.long(), layers) > 0).double()]


def make_flow(rng, n, m):
    w = stochastic(rng, n, m)
    w[rng.random((n, m)) < 0.3] = 0              # some exact zeros (masked keys)
    return Case([n, m], [f32(rng.choice([0.0, 0.01, 0.1]))], [w])


def ref_mask_flow(c):
    n, m = c.ints
    w = c.t(0)
    dist = (torch.arange(n)[:, None] - torch.arange(m)[None, :]).abs().double()
    eff = w > c.reals[0]
    far = dist[eff].max() if eff.any() else torch.tensor(-1.0)
    return [torch.stack([(w * dist).sum() / n, entr_rows(w).mean(), far.double()])]


def make_batch(rng, n, m, d, h):
    b = int(rng.integers(1, 5))
    lens = rng.integers(0 if rng.random() < 0.2 else 1, n + 1, b)   # 0: all padding
    keep = (np.arange(n)[None, :] < lens[:, None]).astype(np.float32)
    if rng.random() < 0.2:
        keep = None
    kind = rng.choice(["none", "causal", "random"])
    attn = None if kind == "none" else (np.tril(np.ones((n, n), np.float32))
                                        if kind == "causal" else bool_mask(rng, n, n))
    return Case([b, n, d, h], [], [randn(rng, b, n, d)] + mha_weights(rng, d)
                + [keep, attn], lens=list(lens), kind=kind)


def ref_mask_mha_batch(c):
    b, n, d, h = c.ints
    mha = load_mha(torch.nn.MultiheadAttention(d, h, batch_first=True,
                                               dtype=torch.float64),
                   *[c.t(k) for k in range(1, 6)])
    keep, attn = as_bool(c.ins[6]), as_bool(c.ins[7])
    out, w = mha(c.t(0), c.t(0), c.t(0), need_weights=True, average_attn_weights=False,
                 key_padding_mask=None if keep is None else ~keep,
                 attn_mask=None if attn is None else ~attn)
    vis = torch.ones(b, n, n, dtype=torch.bool)
    if keep is not None:
        vis &= keep[:, None, :]
    if attn is not None:
        vis &= attn[None]
    empty = ~vis.any(-1)                                      # (b, n)
    # PyTorch's answer for a query that sees nothing: NaN (the chapter says so).
    assert torch.isnan(out[empty]).all() and torch.isnan(w.transpose(1, 2)[empty]).all()
    out = torch.where(empty[..., None], c.t(5)[None, None, :], out)
    return [out, torch.nan_to_num(w, nan=0.0)]


def make_decode(rng, n, m, d, h):
    return Case([n, d, h], [], [randn(rng, n, d)] + mha_weights(rng, d))


def ref_decode(c):
    n, d, h = c.ints
    mha = load_mha(torch.nn.MultiheadAttention(d, h, dtype=torch.float64),
                   *[c.t(k) for k in range(1, 6)])
    causal = torch.nn.Transformer.generate_square_subsequent_mask(n).double()
    out, _ = mha(c.t(0), c.t(0), c.t(0), attn_mask=causal, need_weights=False)
    return [out]


def ref_round_half(c):
    y = c.t(0).float().half().double()
    return [torch.where(torch.isinf(y), torch.sign(y) * BIG, y)]


def make_round_half(rng, n):
    x = np.concatenate([randn(rng, n, scale=float(rng.choice([1e-6, 1.0, 1e3, 1e5]))),
                        np.float32([65504, 65519, 65520, -1e9, 6e-8, 1e-8, 0.1])])
    return Case([x.size], [], [x])


TABLE = [
    Fn("mask_causal", square_sizes,
       lambda rng, n: Case([n]),
       lambda c: [torch.ones(c.ints[0], c.ints[0]).tril()], **EXACT),
    Fn("mask_band", square_sizes,
       lambda rng, n: Case([n, int(rng.integers(-2, n + 2))]),
       lambda c: [torch.ones(c.ints[0], c.ints[0]).tril(c.ints[1]).triu(-c.ints[1])
                  if c.ints[1] >= 0 else torch.zeros(c.ints[0], c.ints[0])], **EXACT),
    Fn("mask_padding", square_sizes,
       lambda rng, n: Case([n], [], [np.where(rng.random(n) < 0.3, 0,
                                              rng.integers(1, 50, n)).astype(np.float32)]),
       lambda c: [(c.t(0) != 0)[None, :].expand(c.ints[0], c.ints[0]).double()],
       **EXACT),
    Fn("mask_to_additive", dict(n=(64, 512), m=(64, 512)),
       lambda rng, n, m: Case([n * m], [f32(rng.choice([-1e9, -1e4, -65504.0]))],
                              [bool_mask(rng, n, m)]),
       lambda c: [torch.zeros(c.ints[0], dtype=torch.float64).masked_fill(
           ~as_bool(c.ins[0]).reshape(-1), c.reals[0])], **EXACT),
    Fn("mask_multiply_rows", dict(n=(64, 300), m=(64, 300)),
       lambda rng, n, m: Case([n, m, int(rng.integers(0, 2))], [],
                              [stochastic(rng, n, m), rand_mask(rng, n, m) if
                               rng.random() < 0.9 else np.zeros((n, m), np.float32)]),
       lambda c: [(lambda w: w / w.sum(-1, keepdim=True).clamp_min(1e-300)
                   if c.ints[2] else w)(c.t(0) * (c.t(1) if c.ins[1] is not None
                                                  else 1.0))]),
    Fn("mask_round_half", dict(n=(64, 1000)), make_round_half, ref_round_half, **EXACT),
    Fn("mask_stats", dict(n=(64, 300), m=(64, 300)),
       lambda rng, n, m: Case([n, m], [], [bool_mask(rng, n, m, p=rng.choice(
           [0.0, 0.02, 0.5, 1.0]))]),
       ref_mask_stats, atol=1e-12, rtol=1e-6),
    Fn("mask_reach", lambda rng: [dict(n=n, layers=l) for n, l in
                                  [(1, 0), (1, 3), (2, 1), (60, 4)] +
                                  [(int(rng.integers(1, 40)), int(rng.integers(0, 6)))
                                   for _ in range(N_CASES - 4)]],
       lambda rng, n, layers: Case([n, layers], [], [bool_mask(rng, n, n,
                                   p=rng.choice([0.02, 0.1, 0.3]))]),
       ref_mask_reach, **EXACT),
    Fn("mask_flow", dict(n=(64, 300), m=(64, 300)), make_flow, ref_mask_flow),
    Fn("mask_mha_batch", lambda rng: [dict(n=s["n"], m=s["m"], d=s["d"], h=s["h"])
                                      for s in heads_sizes(rng, long=48)],
       make_batch, ref_mask_mha_batch),
    Fn("kv_step", lambda rng: heads_sizes(rng, long=96), make_decode, ref_decode),
]
