"""cases_ch10.py -- chapter 10's new layers against torch autograd in float64:
RMSNorm (layers/rmsnorm.h, written out: torch 1.13 has no nn.RMSNorm), the
SwiGLU feed-forward (layers/swiglu.h), RoPE per head and its backward
(position/rope_rows.h, the complex-number form of cases_ch07), causal
grouped-query attention (layers/gqa.h, key/value heads repeated with
repeat_interleave as in LLaMA's repeat_kv) and the tied embedding / output
projection (layers/tied_embed.h). Each backward case draws dL/dout at random;
the reference is autograd of sum(dout * out). The C wrappers are in fns_ch10.c."""
from reflib import *  # noqa: F401,F403


def grads(out, dout, *leaves):
    """Gradients of sum(dout * out) with respect to leaves (zeros if unused)."""
    g = torch.autograd.grad((out * dout).sum(), leaves, allow_unused=True)
    return [torch.zeros_like(x) if gi is None else gi for x, gi in zip(leaves, g)]


def leaf(t):
    return t.clone().requires_grad_(True)


# --- rmsnorm.h -------------------------------------------------------------------

def rms_ref(x, w, eps):
    rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    return x * rstd * w, rstd[:, 0]


def make_rms(rng, n, c):
    eps = float(rng.choice([1e-5, 1e-5, 1e-6]))
    return Case([n, c], [eps], [randn(rng, n, c, scale=float(rng.choice([0.1, 1, 5]))),
                                1.0 + randn(rng, c, scale=0.3), randn(rng, n, c)])


def ref_rms_backward(c):
    x, w = leaf(c.t(0)), leaf(c.t(1))
    return grads(rms_ref(x, w, c.reals[0])[0], c.t(2), x, w)


# --- swiglu.h --------------------------------------------------------------------

def swiglu_ref(x, w1, w3, w2):
    return (F.silu(x @ w1) * (x @ w3)) @ w2


def make_swiglu(rng, n, c, f):
    return Case([n, c, f], [], [randn(rng, n, c), xavier(rng, c, f), xavier(rng, c, f),
                                xavier(rng, f, c), randn(rng, n, c)])


def ref_swiglu_backward(c):
    t = [leaf(c.t(k)) for k in range(4)]
    return grads(swiglu_ref(*t), c.t(4), *t)


# --- rope_rows.h -----------------------------------------------------------------

def rope_rows_ref(x, nh, hs, pos0, base):
    """x (T, NH HS): each head's pairs as complex numbers times
    exp(1j (pos0 + t) theta_i), theta_i = base^(-2i / HS)."""
    t = x.shape[0]
    z = torch.view_as_complex(x.reshape(t, nh, hs // 2, 2).contiguous())
    theta = base ** (-torch.arange(0, hs, 2, dtype=torch.float64) / hs)
    pos = torch.arange(pos0, pos0 + t, dtype=torch.float64)[:, None, None]
    turn = torch.polar(torch.ones(t, 1, hs // 2, dtype=torch.float64), pos * theta)
    return torch.view_as_real(z * turn).reshape(t, nh * hs)


def make_rope_rows(rng, t, nh, hs):
    hs = 2 * hs                                           # pairs
    pos0 = int(rng.choice([0, 1, int(rng.integers(0, 100)), int(rng.integers(0, 20000)),
                           -int(rng.integers(1, 50))]))
    return Case([t, nh, hs, pos0], [10000.0], [randn(rng, t, nh * hs),
                                               randn(rng, t, nh * hs)])


def ref_rope_rows_backward(c):
    t, nh, hs, pos0 = c.ints
    x = leaf(c.t(0))
    return grads(rope_rows_ref(x, nh, hs, pos0, c.reals[0]), c.t(1), x)


# --- gqa.h -----------------------------------------------------------------------

def gqa_sizes(rng, count=N_CASES):
    """(B, T, NH, NKV, HS) with NH a multiple of NKV: MHA, GQA, MQA; edges first."""
    out = [(1, 1, 1, 1, 1), (1, 1, 8, 2, 4), (1, 128, 4, 1, 8), (2, 64, 8, 8, 4),
           (3, 17, 6, 3, 5), (1, 5, 12, 4, 16), (2, 3, 4, 2, 1)]
    while len(out) < count:
        nkv = int(rng.choice([1, 2, 3, 4]))
        nh = nkv * int(rng.choice([1, 2, 3, 4]))
        t = int(rng.choice([1, 2, int(rng.integers(1, 65))]))
        hs = int(rng.choice([1, 2, 4, 8, 16]))
        out.append((int(rng.integers(1, 4)), t, nh, nkv, hs))
    return [dict(b=b, t=t, nh=nh, nkv=nkv, hs=hs) for b, t, nh, nkv, hs in out]


def gqa_ref(q, k, v, nh, nkv, hs):
    """q (B, T, NH HS), k, v (B, T, NKV HS) -> out (B, T, NH HS), att (B, NH, T, T)."""
    b, t = q.shape[:2]
    qh = q.reshape(b, t, nh, hs).transpose(1, 2)
    kh = k.reshape(b, t, nkv, hs).repeat_interleave(nh // nkv, 2).transpose(1, 2)
    vh = v.reshape(b, t, nkv, hs).repeat_interleave(nh // nkv, 2).transpose(1, 2)
    s = qh @ kh.transpose(-1, -2) / math.sqrt(hs)
    future = torch.ones(t, t, dtype=torch.bool).triu(1)
    att = s.masked_fill(future, -INF).softmax(-1)
    return (att @ vh).transpose(1, 2).reshape(b, t, nh * hs), att


def make_gqa(rng, b, t, nh, nkv, hs):
    q, kv = nh * hs, nkv * hs
    return Case([b, t, nh, nkv, hs], [], [randn(rng, b, t, q), randn(rng, b, t, kv),
                                          randn(rng, b, t, kv), randn(rng, b, t, q)])


def ref_gqa_backward(c):
    q, k, v = (leaf(c.t(i)) for i in range(3))
    out, _ = gqa_ref(q, k, v, *c.ints[2:])
    return grads(out, c.t(3), q, k, v)


# --- tied_embed.h ----------------------------------------------------------------

def make_tied(rng, n, v, c):
    return Case([n, v, c], [], [randn(rng, v, c, scale=0.5), rng.integers(0, v, size=n),
                                randn(rng, n, c), randn(rng, n, v)])


def ref_tied_logits_backward(c):
    wte, x = leaf(c.t(0)), leaf(c.t(2))
    return grads(F.linear(x, wte), c.t(3), x, wte)


def ref_tied_both_backward(c):
    """Both uses of one table: logits = embedding(tokens, wte) wte^T."""
    wte = leaf(c.t(0))
    logits = F.linear(F.embedding(c.t(1).long(), wte), wte)
    return grads(logits, c.t(3), wte)


TIED = dict(n=(64, 512), v=(64, 600), c=(32, 128))

TABLE = [
    Fn("rmsnorm_forward", dict(n=(64, 512), c=(64, 1024)), make_rms,
       lambda c: list(rms_ref(c.t(0), c.t(1), c.reals[0]))),
    Fn("rmsnorm_backward", dict(n=(64, 512), c=(64, 1024)), make_rms,
       ref_rms_backward),
    Fn("swiglu_forward", dict(n=(32, 256), c=(32, 128), f=(64, 344)), make_swiglu,
       lambda c: [swiglu_ref(*(c.t(k) for k in range(4)))]),
    Fn("swiglu_backward", dict(n=(32, 256), c=(32, 128), f=(64, 344)), make_swiglu,
       ref_swiglu_backward),
    Fn("rope_rows_forward", dict(t=(64, 512), nh=(8, 16), hs=(16, 64)), make_rope_rows,
       lambda c: [rope_rows_ref(c.t(0), c.ints[1], c.ints[2], c.ints[3], c.reals[0])]),
    Fn("rope_rows_backward", dict(t=(64, 512), nh=(8, 16), hs=(16, 64)), make_rope_rows,
       ref_rope_rows_backward),
    Fn("gqa_forward", gqa_sizes, make_gqa,
       lambda c: list(gqa_ref(c.t(0), c.t(1), c.t(2), *c.ints[2:]))),
    Fn("gqa_backward", gqa_sizes, make_gqa, ref_gqa_backward),
    Fn("tied_embed_forward", TIED, make_tied,
       lambda c: [F.embedding(c.t(1).long(), c.t(0))]),
    Fn("tied_logits_forward", TIED, make_tied, lambda c: [F.linear(c.t(2), c.t(0))]),
    Fn("tied_logits_backward", TIED, make_tied, ref_tied_logits_backward),
    Fn("tied_both_backward", TIED, make_tied, ref_tied_both_backward),
]
