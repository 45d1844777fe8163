"""cases_ch04.py -- the backward passes of chapter 4's layers against torch
autograd (see reflib.py). Each case draws dL/dout at random; the reference is
autograd of sum(dout * out) in float64."""
from reflib import *  # noqa: F401,F403


def grads(out, dout, *leaves):
    """Gradients of sum(dout * out) with respect to leaves (zeros if unused)."""
    g = torch.autograd.grad((out * dout).sum(), leaves, allow_unused=True)
    return [torch.zeros_like(x) if gi is None else gi for x, gi in zip(leaves, g)]


def leaf(c, k):
    return c.t(k).requires_grad_()


def ref_attention_backward(c):
    q, k, v = leaf(c, 0), leaf(c, 1), leaf(c, 2)
    out, _ = sdpa(q, k, v, as_bool(c.ins[3]))
    return grads(out, c.t(4), q, k, v)


def ref_layernorm_backward(c):
    x, g, b = leaf(c, 0), leaf(c, 1), leaf(c, 2)
    y = F.layer_norm(x, (c.ints[1],), g, b, c.reals[0])
    return grads(y, c.t(3), x, g, b)


def ref_ffn_backward(c):
    x = leaf(c, 0)
    seq = ffn_module([c.t(k) for k in range(1, 5)], *c.ints[1:])
    y = seq(x)
    g = grads(y, c.t(5), x, seq[0].weight, seq[0].bias, seq[2].weight, seq[2].bias)
    return [g[0], g[1].T, g[2], g[3].T, g[4]]      # nn.Linear stores W transposed


def make_mha_backward(rng, n, m, d, h):
    self_attn = int(rng.random() < 0.4)
    m = n if self_attn else m
    xq = randn(rng, n, d)
    xkv = xq if self_attn else randn(rng, m, d)
    return Case([n, m, d, h, self_attn], [], [xq, xkv] + mha_weights(rng, d)
                + [rand_mask(rng, n, m, allow_empty=False), randn(rng, n, d)])


def ref_mha_backward(c):
    n, m, d, h, self_attn = c.ints
    mha = load_mha(torch.nn.MultiheadAttention(d, h, dtype=torch.float64),
                   *[c.t(k) for k in range(2, 7)])
    mask = as_bool(c.ins[7])
    xq = leaf(c, 0)
    xkv = xq if self_attn else leaf(c, 1)
    out, _ = mha(xq, xkv, xkv, need_weights=False,
                 attn_mask=None if mask is None else ~mask)
    g = grads(out, c.t(8), xq, xkv, mha.in_proj_weight, mha.out_proj.weight,
              mha.out_proj.bias)
    dxkv = torch.zeros(m, d, dtype=torch.float64) if self_attn else g[1]
    wq, wk, wv = g[2].split(d)                     # packed (3d, d), transposed
    return [g[0], dxkv, wq.T, wk.T, wv.T, g[3].T, g[4]]


TABLE = [
    Fn("attention_backward", dict(n=(48, 256), m=(48, 256), d_k=(32, 64), d_v=(32, 64)),
       lambda rng, n, m, d_k, d_v: Case([n, m, d_k, d_v], [], [
           randn(rng, n, d_k), randn(rng, m, d_k), randn(rng, m, d_v),
           rand_mask(rng, n, m, allow_empty=False), randn(rng, n, d_v)]),
       ref_attention_backward),
    Fn("layernorm_backward", dict(n=(64, 256), d=(64, 512)),
       lambda rng, n, d: Case([n, d], [f32(rng.choice([1e-5, 1e-5, 1e-3]))],
                              [randn(rng, n, d, scale=rng.choice([0.1, 1.0, 10.0]))]
                              + norm_weights(rng, d) + [randn(rng, n, d)]),
       ref_layernorm_backward),
    Fn("ffn_backward", dict(n=(32, 128), d=(32, 64), f=(64, 256)),
       lambda rng, n, d, f: Case([n, d, f], [], [randn(rng, n, d)] + ffn_weights(rng, d, f)
                                 + [randn(rng, n, d)]),
       ref_ffn_backward),
    Fn("mha_backward", lambda rng: heads_sizes(rng, long=128), make_mha_backward,
       ref_mha_backward),
]
